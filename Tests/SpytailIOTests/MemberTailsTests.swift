import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// The tail hashes a resume compares with a checkpoint, from a plain member (pread) and a gzip one (decompressed
/// once up to the furthest offset): the same as a checkpoint of the plain content holds.
struct MemberTailsTests {
    /// 3,000 lines (~70 KB: more than one 64 KB chunk of decompressed bytes) and the offsets asked.
    static let text = (1...3000).map { "2026-11-28T08:00:00Z INFO line \($0)\n" }.joined()
    static let offsets: [Int64] = [0, 1, 255, 256, 257, 65_535, 65_536, 65_537, 65_800, Int64(text.utf8.count)]

    /// The tail hash of `text` before `offset`, as a checkpoint of the plain file saves it.
    static func expected(before offset: Int64) -> UInt64 {
        let bytes = Array(text.utf8)[Int(max(0, offset - Int64(Checkpoint.tailLength)))..<Int(offset)]
        return bytes.withUnsafeBufferPointer { Fingerprint.fnv1a($0) }
    }

    @Test(arguments: [false, true])
    func eachOffsetsHashIsTheContentsWhetherPlainOrGzip(_ gzip: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = gzip ? dir.write("app.log.1.gz", Gzip.member(Self.text)) : dir.write("app.log.1", Self.text)
        let fingerprint = try #require(Fingerprinter.ofFile(dir.write("plain", Self.text)))
        let tails = try #require(MemberTails(path, fingerprint: fingerprint, before: Self.offsets + [999_999]))
        for offset in Self.offsets { #expect(tails.hash(before: offset) == Self.expected(before: offset), "offset \(offset)") }
        #expect(tails.hash(before: 999_999) == nil, "beyond the content")
        #expect(tails.size == Int64(Self.text.utf8.count))
        // Another content's member: no hashes (the resume finds it moved).
        #expect(MemberTails(path, fingerprint: Fingerprint(value: 42), before: Self.offsets) == nil)
    }

    /// A gzip member is read no further than the furthest offset asked.
    @Test func aGzipMemberIsReadOnlyUpToTheFurthestOffset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("app.log.1.gz", Gzip.member(Self.text))
        let fingerprint = try #require(Fingerprinter.ofFile(dir.write("plain", Self.text)))
        let tails = try #require(MemberTails(path, fingerprint: fingerprint, before: [300]))
        #expect(tails.hash(before: 300) == Self.expected(before: 300))
        #expect(tails.size < Int64(Self.text.utf8.count) && tails.size >= 300)
    }

    /// The live file's check at a resume: the bytes before the offset decide, and a position never hashed
    /// (`Checkpoint.unknownTail`) is not checked (it was taken for rewritten: read again from an anchor under new ids).
    @Test func theLiveFilesTailIsCheckedUnlessItWasNeverHashed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("app.log", Self.text)
        let fingerprint = try #require(Fingerprinter.ofFile(path))
        func check(_ tailHash: UInt64) -> Tailer<ContinuousClock>.TailCheck {
            Tailer<ContinuousClock>.tail(of: path, against: Checkpoint(path: path, identity: FileIdentity(device: 0, inode: 0),
                                                                       fingerprint: fingerprint, offset: 300, tailHash: tailHash))
        }
        #expect(check(Self.expected(before: 300)) == .matches)
        #expect(check(Self.expected(before: 300) ^ 1) == .rewritten)
        #expect(check(Checkpoint.unknownTail) == .matches)
    }
}
