import Foundation
import Synchronization
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// The tailer in this process (the only test that starts inotify here: libinotifytools allows one
/// watcher per process), with a checkpoint-store spy and a manual clock.
struct TailerTests {
    /// A value shared with the tailer's thread, behind a lock.
    final class Box<T>: @unchecked Sendable {
        private let lock = Mutex<Void>(())
        private var stored: T
        init(_ value: T) { stored = value }
        var value: T {
            get { lock.withLock { _ in stored } }
            set { lock.withLock { _ in stored = newValue } }
        }
    }

    @Test func checkpointsNeverRunAheadOfTheOutputAndIdleEntriesWaitForTheClock() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        let log = dir.write("logs/app.log", "first\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "cp.json",
             "parse": {"multiline": {"continuation": "^\\s", "idleTimeoutMs": 200}},
             "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}
            """#)
        let output = dir.file("out.jsonl")
        func exported() -> [String] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["message"] as? String
            }
        }
        // At every save, every line before each checkpoint's offset must already be in the output.
        let violations = Box<[String]>([])
        let store = RecordingCheckpointStore()
        store.onSave = { checkpoints in
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for checkpoint in checkpoints {
                let before = String(decoding: Array(text.utf8).prefix(Int(checkpoint.offset)), as: UTF8.self)
                let heads = before.split(separator: "\n").filter { !($0.first?.isWhitespace ?? true) }.map(String.init)
                let out = exported()
                if !heads.allSatisfy(out.contains) { violations.value.append("offset \(checkpoint.offset): \(heads) vs \(out)") }
            }
        }
        let clock = ManualClock()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: store, events: RecordingEventReporter(), clock: clock)
        let finished = Box(false)
        let running = Box(tailer)  // the tailer runs on its thread; this test only posts to its inbox
        let inbox = tailer.inbox
        let thread = Thread {
            try? running.value.run()
            finished.value = true
        }
        thread.start()
        // With a multiline rule, "first" waits for the next head line (or the clock): saved at offset 0.
        #expect(Waiting.until(10, every: 0.01) { store.saves.first?.checkpoints.first?.offset == 0 })
        #expect(exported() == [])

        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).appendAndClose("second\nboom\n  at frame 1\n")
        #expect(Waiting.until(10, every: 0.01) { exported() == ["first", "second"] })
        // "boom" waits for a next head line or the idle timeout, which only the clock can bring.
        #expect(Waiting.until(10, every: 0.01) { store.saves.last?.checkpoints.first?.offset == 13 })
        #expect(exported() == ["first", "second"])
        clock.advance(by: .milliseconds(300))
        inbox.push(.watch(.overflow))  // wake the loop; the timer is due now
        #expect(Waiting.until(10, every: 0.01) { exported() == ["first", "second", "boom"] })

        inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
        #expect(violations.value.isEmpty, "\(violations.value)")
        #expect(store.loadCallCount == 1)
        let last = try #require(store.saves.last)
        #expect(last.durable)
        #expect(last.checkpoints.map(\.offset) == [31])
    }
}

extension FileHandle {
    func appendAndClose(_ text: String) throws {
        seekToEndOfFile()
        write(Data(text.utf8))
        try close()
    }
}
