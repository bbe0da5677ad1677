import SpytailCore

/// The checkpoint policy in one place: an in-memory view of the last save, written only when it changed
/// (or when a sync is due), fsync'ed at most every `syncInterval` and at exit, through the store's tmp +
/// fsync + rename. The caller flushes every output first, so a checkpoint is never ahead of the data; the
/// run's condition says whether saving is allowed and says a failure (and the recovery) once.
///
/// Outputs acknowledged later (network outputs, `DeliveryLedger`): each set of checkpoints is noted with
/// how many records every such output had taken, and waits until they are all acknowledged; the newest
/// set acknowledged is the one saved. Without such outputs a set is saved at once.
final class Checkpointer {
    enum Outcome: Equatable {
        case unchanged
        case saved
        case failed(String)
    }

    /// A set of checkpoints waiting for acknowledgements.
    struct Pending {
        let positions: SavedPositions
        let marks: [(ledger: DeliveryLedger, taken: UInt64)]
        var acknowledged: Bool { marks.allSatisfy { $0.ledger.hasAcknowledged($0.taken) } }
    }

    /// Sets waiting at most; beyond it the middle ones are dropped (a later set supersedes them anyway).
    static let maxPending = 256

    let store: (any CheckpointStore)?
    private(set) var lastSaved = SavedPositions()
    private(set) var pending: [Pending] = []
    private var lastSync: Duration = .zero
    /// A save since the last fsync.
    private(set) var unsynced = false
    /// When the last save succeeded (run time).
    private(set) var lastSavedAt: Duration?

    init(store: (any CheckpointStore)?) { self.store = store }

    /// The saved checkpoints, or the reason they cannot be used (the store sets a damaged file aside).
    func load() -> (saved: SavedPositions, problem: String?) {
        guard let store else { return (SavedPositions(), nil) }
        do { return (try store.load(), nil) } catch { return (SavedPositions(), "\(error)") }
    }

    /// Notes `checkpoints` behind the outputs' `ledgers` and saves the newest set every output
    /// acknowledged, when it changed, or makes the last save durable when `durable` or a sync is due.
    func save(_ positions: SavedPositions, ledgers: [DeliveryLedger] = [], now: Duration, durable: Bool,
              settings: RunSettings) -> Outcome {
        let marks = ledgers.map { (ledger: $0, taken: $0.taken) }
        if pending.last?.positions != positions && (pending.isEmpty ? lastSaved != positions : true) {
            pending.append(Pending(positions: positions, marks: marks))
            if pending.count > Self.maxPending { pending.remove(at: pending.count / 2) }
        }
        return saveAcknowledged(now: now, durable: durable, settings: settings)
    }

    /// Saves the newest noted set that every output acknowledged (nothing new is noted: reading is paused
    /// behind an output, but what was acknowledged before may still be saved).
    func saveAcknowledged(now: Duration, durable: Bool, settings: RunSettings) -> Outcome {
        var newest: Int?
        for (i, set) in pending.enumerated() where set.acknowledged { newest = i }
        let positions = newest.map { pending[$0].positions } ?? lastSaved
        let syncDue = durable || (unsynced && now - lastSync >= settings.syncInterval)
        guard let store, positions != lastSaved || syncDue else {
            if let newest { pending.removeFirst(newest + 1) }
            return .unchanged
        }
        do {
            try store.save(positions, durable: syncDue)
        } catch {
            return .failed("\(error)")
        }
        if let newest { pending.removeFirst(newest + 1) }
        if positions != lastSaved { unsynced = !syncDue }
        if syncDue {
            lastSync = now
            unsynced = false
        }
        lastSaved = positions
        lastSavedAt = now
        return .saved
    }

    /// Makes the last save durable (the run ends on an output error): what came after it is read again.
    func saveDelivered() -> String? {
        guard unsynced, let store else { return nil }
        do {
            try store.save(lastSaved, durable: true)
            unsynced = false
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// When the next fsync is due (nil: nothing unsynced).
    func nextSync(settings: RunSettings) -> Duration? { unsynced ? lastSync + settings.syncInterval : nil }
}
