import Glibc
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// The checkpoint rule with outputs acknowledged later: a set of checkpoints is saved only once every
/// network output acknowledged what it had taken when the set was noted; the newest such set wins.
struct CheckpointerTests {
    let settings = RunSettings(config: SpytailConfig())

    func checkpoint(_ offset: Int64) -> Checkpoint {
        Checkpoint(path: "/logs/app.log", identity: FileIdentity(device: 1, inode: 2), fingerprint: Fingerprint(value: 7), offset: offset, tailHash: 0)
    }

    func positions(_ offset: Int64, seen: [Fingerprint] = []) -> SavedPositions {
        SavedPositions(checkpoints: [checkpoint(offset)], seen: seen.isEmpty ? [:] : ["/logs/app.log": seen.map { .init($0) }])
    }

    /// The contents seen are saved with the checkpoints: a newly seen copy alone is a change to save.
    @Test func aNewlySeenContentIsSavedEvenWhenNoOffsetMoved() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        #expect(checkpointer.save(positions(10, seen: [Fingerprint(value: 7)]), now: .zero, durable: false, settings: settings, syncOutputs: {}) == .saved)
        #expect(checkpointer.save(positions(10, seen: [Fingerprint(value: 7), Fingerprint(value: 8)]), now: .zero, durable: false,
                                  settings: settings, syncOutputs: {}) == .saved)
        #expect(store.saves.last?.saved.seen["/logs/app.log"]?.map(\.fingerprint) == [Fingerprint(value: 7), Fingerprint(value: 8)])
    }

    /// A stop while an output was full from the start (nothing noted yet in this run) makes the last save durable:
    /// that is what the start loaded, not an empty set. (An empty one was written: the next start read every file
    /// again from its start, and a content a power loss had cut back lost its epoch; found by the run simulator.)
    @Test func aDurableSaveBeforeAnythingWasNotedKeepsWhatWasLoaded() {
        let store = RecordingCheckpointStore()
        store.loadResult = .success(positions(10, seen: [Fingerprint(value: 7)]))
        let checkpointer = Checkpointer(store: store)
        #expect(checkpointer.load().saved == positions(10, seen: [Fingerprint(value: 7)]))
        _ = checkpointer.saveAcknowledged(now: .seconds(1), durable: true, settings: settings, syncOutputs: {})
        #expect(store.saves.map(\.saved) == [positions(10, seen: [Fingerprint(value: 7)])])
    }

    @Test func withoutNetworkOutputsASetIsSavedAtOnce() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        #expect(checkpointer.save(positions(10), now: .zero, durable: false, settings: settings, syncOutputs: {}) == .saved)
        #expect(checkpointer.save(positions(10), now: .zero, durable: false, settings: settings, syncOutputs: {}) == .unchanged)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(10)]])
    }

    @Test func aSetWaitsForEveryLedgerAndTheNewestAcknowledgedWins() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let clickhouse = DeliveryLedger(), other = DeliveryLedger()
        clickhouse.take(5)
        other.take(1)
        #expect(checkpointer.save(positions(100), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings, syncOutputs: {}) == .unchanged)
        clickhouse.take(5)
        #expect(checkpointer.save(positions(200), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings, syncOutputs: {}) == .unchanged)
        #expect(store.saves.isEmpty)

        clickhouse.acknowledge(5)  // the first set's 5 records, but `other` has not acknowledged its 1
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings, syncOutputs: {}) == .unchanged)
        other.acknowledge(1)
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings, syncOutputs: {}) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(100)]])

        clickhouse.acknowledge(5)
        #expect(checkpointer.save(positions(200), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings, syncOutputs: {}) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(100)], [checkpoint(200)]])
        #expect(checkpointer.pendingCount == 0)
    }

    @Test func aRetiredLedgerNoLongerHoldsCheckpointsBack() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let removed = DeliveryLedger()
        removed.take(3)
        _ = checkpointer.save(positions(50), ledgers: [removed], now: .zero, durable: false, settings: settings, syncOutputs: {})
        #expect(store.saves.isEmpty)
        removed.retire()
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings, syncOutputs: {}) == .saved)
        #expect(store.saves.last?.checkpoints == [checkpoint(50)])
    }

    /// A durable save comes after the outputs' bytes are on the disk (a power loss then cannot leave the checkpoint
    /// ahead of an output); a save between syncs does not wait for the disk.
    @Test func aDurableSaveSyncsTheOutputsFirstAndOnlyIt() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        var happened: [String] = []
        store.onSave = { _ in happened.append("save") }
        let sync: () throws(SinkError) -> Void = { happened.append("sync") }
        #expect(checkpointer.save(positions(10), now: .zero, durable: false, settings: settings, syncOutputs: sync) == .saved)
        #expect(happened == ["save"])
        #expect(checkpointer.save(positions(20), now: .zero, durable: true, settings: settings, syncOutputs: sync) == .saved)
        #expect(happened == ["save", "sync", "save"])
        #expect(store.saves.map(\.durable) == [false, true])
    }

    /// An output that cannot sync keeps the checkpoints from being made durable: the failure names it, the save is
    /// made without the disk (it counts until a power loss), and the durable one is asked for again at once.
    @Test func anOutputThatCannotSyncKeepsTheSaveFromBeingDurable() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let failing: () throws(SinkError) -> Void = { () throws(SinkError) in
            throw SinkError(destination: "/out/app.jsonl", cause: .other(errno: EIO, message: "cannot sync to disk: EIO"))
        }
        let outcome = checkpointer.save(positions(10), now: .seconds(5), durable: true, settings: settings, syncOutputs: failing)
        guard case .failed(let problem) = outcome else {
            Issue.record("expected a failed save, got \(outcome)")
            return
        }
        #expect(problem.contains("/out/app.jsonl") && problem.contains("not made durable"))
        #expect(store.saves.map(\.durable) == [false])
        // Tried again a sync interval later, not at every turn of the loop.
        #expect(checkpointer.unsynced && checkpointer.nextSync(settings: settings) == .seconds(5) + settings.syncInterval)
        #expect(checkpointer.saveAcknowledged(now: .seconds(5) + settings.syncInterval, durable: false, settings: settings,
                                              syncOutputs: {}) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(10)], [checkpoint(10)]])
        #expect(store.saves.map(\.durable) == [false, true])
        #expect(!checkpointer.unsynced)
    }

    @Test func pendingSetsStayBoundedAndTheNewestIsKept() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let ledger = DeliveryLedger()
        for offset in 1...1_000 {
            ledger.take(1)
            _ = checkpointer.save(positions(Int64(offset)), ledgers: [ledger], now: .zero, durable: false, settings: settings, syncOutputs: {})
        }
        #expect(checkpointer.pendingCount <= Checkpointer.maxPending)
        ledger.acknowledge(1_000)
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: true, settings: settings, syncOutputs: {}) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(1_000)]])
        #expect(store.saves.last?.durable == true)
    }
}
