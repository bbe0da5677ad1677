import Foundation
import Testing
import SpytailCore
import SpytailIO
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
