import Foundation
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// One followed file read through its descriptor while a rotator works on it.
struct TailedFileTests {
    /// The messages `file` hands out on one read to its end, and how the read came out.
    static func read(_ file: TailedFile) throws -> (messages: [String], result: TailedFile.ReadResult) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 64)
        defer { buffer.deallocate() }
        var messages: [String] = []
        let result = try file.readToEnd(buffer: buffer, now: .zero) { (entry: inout SpyEntry) throws(SinkError) in messages.append(String(decoding: entry.text, as: UTF8.self)) }
        return (messages, result)
    }

    /// A look said "grew"; before the read, logrotate copied and truncated the file (copytruncate) and the writer
    /// refilled it past our offset. The read there returns the new content's bytes, which are no continuation of
    /// the old: they must not be handed out (they were, as lines cut in the middle, and the old content's rest in
    /// the copy was then skipped as already read).
    @Test func aChunkReadAfterATruncationAndRefillIsNotHandedOut() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.write("app.log", "old 1\nold 2\n")
        let file = try TailedFile(path: log, followPath: log, offset: 0, fingerprint: nil, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        #expect(try Self.read(file).messages == ["old 1", "old 2"])

        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).appendAndClose("old 3\n")  // the look sees it grow
        dir.write("app.log.1", "old 1\nold 2\nold 3\n")                                 // the copy
        dir.write("app.log", (1...20).map { "new \($0)\n" }.joined())                     // truncated, refilled past 12
        let (messages, result) = try Self.read(file)
        #expect(messages == [])
        #expect(result.headChanged)
        #expect(result.bytes == 0)
        #expect(file.offset == 12, "the old content's rest is recovered from its copy from here")
    }

    /// A file opened empty whose lines came before it was read (its events behind a busy loop at a stop) is saved
    /// at 0 under the content its first line names: the run counts the open file as seeing that content, so a
    /// restart that found no position for it took it for read and lost its lines (the node test, once in CI).
    @Test func aFileOpenedEmptyAndWrittenBeforeItWasReadIsSavedAtItsStart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.write("2.log", "")
        let file = try TailedFile(path: log, followPath: log, offset: 0, fingerprint: nil, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        #expect(file.checkpoint() == nil, "nothing to name yet")
        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).appendAndClose("first li")
        #expect(file.checkpoint() == nil, "a first line not finished names nothing yet")
        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).appendAndClose("ne\nsecond line\n")
        let saved = try #require(file.checkpoint())
        #expect(saved.offset == 0)
        #expect(saved.fingerprint == Fingerprinter.ofFile(log))
        #expect(saved.identity == file.identity && saved.path == log)
        #expect(try Self.read(file).messages == ["first line", "second line"], "reading it later changes nothing of that")
        #expect(file.checkpoint()?.fingerprint == saved.fingerprint)
    }

    @Test func aFileThatOnlyGrowsIsReadAsBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.write("app.log", "a\n")
        let file = try TailedFile(path: log, followPath: log, offset: 0, fingerprint: nil, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        _ = try Self.read(file)
        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).appendAndClose("b\nc\n")
        let (messages, result) = try Self.read(file)
        #expect(messages == ["b", "c"])
        #expect(!result.headChanged && result.bytes == 4)
    }

    /// Resumed with a known fingerprint (a restart): the head check learns the first line's length from the file.
    @Test func aResumedFileChecksItsHeadToo() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.write("app.log", "first line\nsecond\n")
        let fingerprint = try #require(Fingerprinter.ofFile(log))
        let file = try TailedFile(path: log, followPath: log, offset: 11, fingerprint: fingerprint, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        #expect(try Self.read(file).messages == ["second"])
        dir.write("app.log", "another first\n" + String(repeating: "x", count: 40) + "\n")
        #expect(try Self.read(file).result.headChanged)
    }

    /// The tail hash of `text`'s bytes before `offset`.
    static func tailHash(of text: String, before offset: Int) -> UInt64 {
        Array(text.utf8)[max(0, offset - Checkpoint.tailLength)..<offset].withUnsafeBufferPointer { Fingerprint.fnv1a($0) }
    }

    /// A checkpoint saves the hash of the bytes read, even when the file was truncated and refilled since
    /// (copytruncate) and nothing has looked yet. It hashed what pread found at save time: the new content's
    /// bytes under the old content's fingerprint, so a copy of the old content checked against it later looked
    /// rewritten (the simulator: copies read again under new ids in 109 of seeds 1…4000).
    @Test func aCheckpointHashesTheBytesAsTheyWereRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let old = "old first line\nold second line\n"
        let log = dir.write("app.log", old)
        let file = try TailedFile(path: log, followPath: log, offset: 0, fingerprint: nil, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        #expect(try Self.read(file).messages.count == 2)
        dir.write("app.log", String(repeating: "new content, longer than the old one\n", count: 4))  // truncated, refilled
        let checkpoint = try #require(file.checkpoint())
        #expect(checkpoint.offset == Int64(old.utf8.count))
        #expect(checkpoint.tailHash == Self.tailHash(of: old, before: old.utf8.count))
    }

    /// Resumed at a checkpoint's offset and truncated before anything more was read: the hash taken when it was
    /// opened is saved, not one of bytes the file no longer holds.
    @Test func aResumedFileKeepsTheHashTakenWhenItWasOpened() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let old = "first line\nsecond\n"
        let log = dir.write("app.log", old)
        let fingerprint = try #require(Fingerprinter.ofFile(log))
        let file = try TailedFile(path: log, followPath: log, offset: 11, fingerprint: fingerprint, parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
        dir.write("app.log", "")
        #expect(file.checkpoint()?.tailHash == Self.tailHash(of: old, before: 11))
    }
}
