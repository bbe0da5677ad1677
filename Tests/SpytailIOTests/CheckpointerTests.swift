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
        #expect(checkpointer.save(positions(10, seen: [Fingerprint(value: 7)]), now: .zero, durable: false, settings: settings) == .saved)
        #expect(checkpointer.save(positions(10, seen: [Fingerprint(value: 7), Fingerprint(value: 8)]), now: .zero, durable: false,
                                  settings: settings) == .saved)
        #expect(store.saves.last?.saved.seen["/logs/app.log"]?.map(\.fingerprint) == [Fingerprint(value: 7), Fingerprint(value: 8)])
    }

    @Test func withoutNetworkOutputsASetIsSavedAtOnce() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        #expect(checkpointer.save(positions(10), now: .zero, durable: false, settings: settings) == .saved)
        #expect(checkpointer.save(positions(10), now: .zero, durable: false, settings: settings) == .unchanged)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(10)]])
    }

    @Test func aSetWaitsForEveryLedgerAndTheNewestAcknowledgedWins() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let clickhouse = DeliveryLedger(), other = DeliveryLedger()
        clickhouse.take(5)
        other.take(1)
        #expect(checkpointer.save(positions(100), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings) == .unchanged)
        clickhouse.take(5)
        #expect(checkpointer.save(positions(200), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings) == .unchanged)
        #expect(store.saves.isEmpty)

        clickhouse.acknowledge(5)  // the first set's 5 records, but `other` has not acknowledged its 1
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings) == .unchanged)
        other.acknowledge(1)
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(100)]])

        clickhouse.acknowledge(5)
        #expect(checkpointer.save(positions(200), ledgers: [clickhouse, other], now: .zero, durable: false, settings: settings) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(100)], [checkpoint(200)]])
        #expect(checkpointer.pendingCount == 0)
    }

    @Test func aRetiredLedgerNoLongerHoldsCheckpointsBack() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let removed = DeliveryLedger()
        removed.take(3)
        _ = checkpointer.save(positions(50), ledgers: [removed], now: .zero, durable: false, settings: settings)
        #expect(store.saves.isEmpty)
        removed.retire()
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: false, settings: settings) == .saved)
        #expect(store.saves.last?.checkpoints == [checkpoint(50)])
    }

    @Test func pendingSetsStayBoundedAndTheNewestIsKept() {
        let store = RecordingCheckpointStore()
        let checkpointer = Checkpointer(store: store)
        let ledger = DeliveryLedger()
        for offset in 1...1_000 {
            ledger.take(1)
            _ = checkpointer.save(positions(Int64(offset)), ledgers: [ledger], now: .zero, durable: false, settings: settings)
        }
        #expect(checkpointer.pendingCount <= Checkpointer.maxPending)
        ledger.acknowledge(1_000)
        #expect(checkpointer.saveAcknowledged(now: .zero, durable: true, settings: settings) == .saved)
        #expect(store.saves.map(\.checkpoints) == [[checkpoint(1_000)]])
        #expect(store.saves.last?.durable == true)
    }
}
