import Foundation
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// An output that fills up in the middle of a read, and has room again before the loop looks at it (a network
/// output's delivery thread drains its buffer meanwhile): the read that was cut short is finished, though no
/// file event will ever say so. Found by the ClickHouse outage test under load: a writer that had stopped,
/// 24,995 of 90,000 lines delivered, the rest never read (the tailer waited for an event that never came).
struct TailerFullOutputTests {
    /// Takes `room` bytes, then says it is full once (a partial write); from then on takes everything.
    final class OutputFullOnce: ByteWriter, RemoteOutputOpener, @unchecked Sendable {
        let name = "full once"
        private let state = Locked((room: 0, choked: false, taken: [UInt8]()))

        init(room: Int) { state.withLock { $0.room = room } }

        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
            let refused: Int? = state.withLock { s in
                guard !s.choked, s.taken.count + bytes.count > s.room else {
                    s.taken += bytes
                    return nil
                }
                let room = s.room - s.taken.count
                s.taken += bytes.prefix(room)
                s.choked = true
                return room
            }
            if let refused { throw SinkError(destination: name, cause: .waiting("full"), written: refused) }
        }

        var choked: Bool { state.withLock { $0.choked } }
        var lines: [String] { String(decoding: state.withLock { $0.taken }, as: UTF8.self).split(separator: "\n").map(String.init) }

        func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
            OpenOutput(formatter: TextFormatter(vocabulary: vocabulary, color: false), writer: self)
        }
    }

    @Test func aReadCutShortByAFullOutputIsFinishedOnceTheOutputTakesBytesAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        // 10,000 lines, ~370 KB: more than one 256 KiB read (the loop looks at its outputs between reads), less
        // than a backlog for the block path (1 MiB).
        let total = 10_000
        dir.write("logs/app.log", (1...total).map { "2026-11-24T10:00:00Z INFO line \($0)\n" }.joined())
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}],
             "outputs": [{"type": "syslog", "address": "127.0.0.1:514"}]}
            """#)
        let output = OutputFullOnce(room: 1000)
        let spy = RecordingFileEvents(), clock = ManualClock(), reporter = RecordingEventReporter()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: nil, events: reporter, clock: clock,
                                fileEvents: spy.factory, remote: output)
        let finished = TailerTests.start(tailer)
        // The first batch filled the output; the flush after the read finds room (nothing waits any more).
        #expect(Waiting.until(10, every: 0.01) { output.choked })
        // No file event comes: only the loop's own retry of a full output (on its clock, which keeps moving
        // here) can bring the rest.
        #expect(Waiting.until(10, every: 0.05) {
            clock.advance(by: .milliseconds(500))
            return output.lines.count == total
        }, "\(output.lines.count) of \(total) lines")
        #expect(output.lines.last?.hasSuffix("line \(total)") == true, "\(reporter.events)")
        #expect(Set(output.lines).count == total, "each line once")
        tailer.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
    }
}

/// A pause that ends inside a step (a catch-up waiting in place for room, `waitWhileStalled`) rather than by the
/// loop's retry of the output: the files whose reading the pause cut short or held back get no event to say so, so
/// the turn looks at everything again when it ends (`looksAgainAfterPause`). The simulator found it (seed 2236: a
/// file followed while reading was paused, the pause ended inside a catch-up's wait); here step by step, with real
/// files and the loop's own turns.
struct TailerPauseInsideAStepTests {
    /// Takes everything until `choke()`, then refuses (after a partial write) until `release()`.
    final class ChokingOutput: ByteWriter, RemoteOutputOpener, @unchecked Sendable {
        let name = "choking"
        private let state = Locked((choked: false, refusals: 0, taken: [UInt8]()))

        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
            let taken: Int? = state.withLock { s in
                guard s.choked else {
                    s.taken += bytes
                    return nil
                }
                let part = s.refusals == 0 ? bytes.count / 2 : 0
                s.taken += bytes.prefix(part)
                s.refusals += 1
                return part
            }
            if let taken { throw SinkError(destination: name, cause: .waiting("full"), written: taken) }
        }

        func choke() { state.withLock { $0.choked = true } }
        func release() { state.withLock { $0.choked = false } }
        var refusals: Int { state.withLock { $0.refusals } }
        var lines: [String] { String(decoding: state.withLock { $0.taken }, as: UTF8.self).split(separator: "\n").map(String.init) }

        func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
            OpenOutput(formatter: TextFormatter(vocabulary: vocabulary, color: false), writer: self)
        }
    }

    @Test func filesHeldBackByAPauseThatEndsInsideAStepAreReadWhenTheTurnEnds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let logs = dir.file("logs")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        func lines(_ name: String, _ range: ClosedRange<Int>) -> [String] { range.map { "2026-11-24T10:00:00Z INFO \(name) line \($0)" } }
        dir.write("logs/a.log", lines("a", 1...5).map { $0 + "\n" }.joined())
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}],
             "outputs": [{"type": "syslog", "address": "127.0.0.1:514"}]}
            """#)
        let output = ChokingOutput()
        let spy = RecordingFileEvents(), clock = ManualClock()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: nil, events: RecordingEventReporter(), clock: clock,
                                fileEvents: spy.factory, remote: output)
        tailer.open()
        try tailer.begin()
        #expect(output.lines.count == 5)

        // The output fills up in the middle of a read of `a.log` (10,000 lines more, ~400 KB: more than one 256 KiB
        // read): the read stops there and the run pauses.
        output.choke()
        let more = lines("a", 6...10_005)
        let a = FileHandle(forWritingAtPath: dir.file("logs/a.log"))!
        a.seekToEndOfFile()
        a.write(Data(more.map { $0 + "\n" }.joined().utf8))
        try a.close()
        _ = try tailer.turn([.watch(.changed(directory: logs, name: "a.log", kind: .modified))])
        #expect(output.refusals > 0 && tailer.condition.isStalled)
        // `b.log` arrives during the pause: followed, not read.
        let bLines = lines("b", 1...20)
        dir.write("logs/b.log", bLines.map { $0 + "\n" }.joined())
        _ = try tailer.turn([.watch(.changed(directory: logs, name: "b.log", kind: .entries))])
        #expect(!output.lines.contains { $0.hasSuffix(bLines[0]) })

        // The room comes while a step waits for it (as a catch-up of a rotated copy does): the pause ends there.
        output.release()
        try tailer.waitWhileStalled()
        #expect(!tailer.condition.isStalled)
        #expect(tailer.nextTimeout() == .zero, "the loop turns at once, whatever else is due")
        // The turn that step belonged to ends; no file event ever comes for `a.log` or `b.log` again.
        _ = try tailer.turn([])
        // Each record is the category's glyph, then the line as written.
        let got = output.lines.map { String($0.drop { $0 != " " }.dropFirst()) }
        let expected = lines("a", 1...10_005) + bLines
        #expect(got.count == expected.count && Set(got) == Set(expected),
                "\(got.count) of \(expected.count) lines; a's last: \(got.contains(more.last!)), b's last: \(got.contains(bLines.last!))")
        tailer.abandon()
    }
}
