import Foundation
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// A checkpoint made durable never names lines a power loss could still take from an output: the run syncs
/// every output first, the ones a reload replaced included. (What the store does with saves in between is
/// `FileCheckpointStoreTests`'.)
struct TailerDurabilityTests {
    /// Spy writers, one per output opened: bytes taken and bytes synced.
    final class SyncRecordingOutputs: RemoteOutputOpener, @unchecked Sendable {
        final class Writer: ByteWriter, @unchecked Sendable {
            let name: String
            private let counts = Locked((written: 0, synced: 0))
            init(name: String) { self.name = name }
            func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) { counts.withLock { $0.written += bytes.count } }
            func sync() throws(SinkError) { counts.withLock { $0.synced = $0.written } }
            var written: Int { counts.withLock { $0.written } }
            var unsynced: Int { counts.withLock { $0.written - $0.synced } }
        }

        private let opened = Locked([Writer]())
        var writers: [Writer] { opened.withLock { $0 } }

        func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
            let writer = Writer(name: "output \(writers.count)")
            opened.withLock { $0.append(writer) }
            return OpenOutput(formatter: TextFormatter(vocabulary: vocabulary, color: false), writer: writer)
        }
    }

    static func config(port: Int) -> String {
        #"{"sources": [{"name": "app", "include": ["logs/*.log"], "startAt": "beginning"}], "outputs": [{"type": "syslog", "address": "127.0.0.1:\#(port)"}]}"#
    }

    /// Each durable save as it happened: the bytes every output held then that were not synced.
    static func unsyncedAtDurableSaves(_ store: RecordingCheckpointStore, _ outputs: SyncRecordingOutputs) -> () -> [[Int]] {
        let seen = Locked([[Int]]())
        store.onSave = { _ in seen.withLock { $0.append(outputs.writers.map(\.unsynced)) } }
        return { zip(store.saves, seen.withLock { $0 }).filter { $0.0.durable }.map(\.1) }
    }

    /// Lines appended while the run follows the file (read at start-up, they would be covered by its durable save).
    static func append(_ dir: TemporaryDirectory, _ spy: RecordingFileEvents, _ range: ClosedRange<Int>) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/app.log")))
        handle.seekToEndOfFile()
        handle.write(Data(range.map { "line \($0)\n" }.joined().utf8))
        try handle.close()
        spy.deliver(.changed(directory: dir.file("logs"), name: "app.log", kind: .modified))
    }

    @Test func everyDurableSaveComesAfterTheOutputsAreSynced() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/app.log", (1...100).map { "line \($0)\n" }.joined())
        let outputs = SyncRecordingOutputs(), store = RecordingCheckpointStore()
        let durableSaves = Self.unsyncedAtDurableSaves(store, outputs)
        let spy = RecordingFileEvents(), clock = ManualClock()
        let tailer = try Tailer(configFile: ConfigFile(path: dir.write("c.json", Self.config(port: 514))), store: store,
                                events: RecordingEventReporter(), clock: clock, fileEvents: spy.factory, remote: outputs)
        let finished = TailerTests.start(tailer)
        #expect(Waiting.until(10, every: 0.01) { outputs.writers.first?.written ?? 0 > 0 && !store.saves.isEmpty })
        try Self.append(dir, spy, 101...200)
        #expect(Waiting.until(10, every: 0.01) { store.saves.contains { !$0.durable } }, "saves between syncs do not wait for the disk")
        // The sync interval passing makes the last save durable.
        #expect(Waiting.until(10, every: 0.05) {
            clock.advance(by: .milliseconds(500))
            return durableSaves().count >= 2
        })
        tailer.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
        #expect(durableSaves().count >= 3)
        #expect(durableSaves().allSatisfy { $0.allSatisfy { $0 == 0 } }, "unsynced bytes at each durable save: \(durableSaves())")
    }

    /// A reload that replaces an output: the old one's last bytes are synced before the next durable save.
    @Test func anOutputAReloadReplacedIsSyncedBeforeTheNextDurableSave() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/app.log", (1...100).map { "line \($0)\n" }.joined())
        let config = dir.write("c.json", Self.config(port: 514))
        let outputs = SyncRecordingOutputs(), store = RecordingCheckpointStore()
        let durableSaves = Self.unsyncedAtDurableSaves(store, outputs)
        let spy = RecordingFileEvents(), clock = ManualClock()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: store, events: RecordingEventReporter(),
                                clock: clock, fileEvents: spy.factory, remote: outputs)
        let finished = TailerTests.start(tailer)
        #expect(Waiting.until(10, every: 0.01) { outputs.writers.first?.written ?? 0 > 0 && !store.saves.isEmpty })
        try Self.append(dir, spy, 101...200)
        #expect(Waiting.until(10, every: 0.01) { store.saves.last?.durable == false })
        dir.write("c.json", Self.config(port: 515))
        tailer.inbox.push(.request(.reload))
        #expect(Waiting.until(10, every: 0.01) { outputs.writers.count == 2 })
        let before = durableSaves().count
        #expect(Waiting.until(10, every: 0.05) {
            clock.advance(by: .milliseconds(500))
            return durableSaves().count > before
        })
        #expect(outputs.writers[0].written > 0 && outputs.writers[0].unsynced == 0)
        #expect(durableSaves().allSatisfy { $0.allSatisfy { $0 == 0 } }, "unsynced bytes at each durable save: \(durableSaves())")
        tailer.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
    }
}
