import SpytailCore

/// Carries out `CheckpointPolicy` (when and which set of checkpoints is saved) against the store: loads, writes
/// through the store's tmp + fsync + rename, and tells the policy how each write went. The caller flushes every
/// output first, so a checkpoint is never ahead of the data; before a durable save the outputs are synced
/// (`syncOutputs`), so it is not ahead of what a power loss leaves of them either. The run's condition says
/// whether saving is allowed and says a failure (and the recovery) once.
///
/// Outputs acknowledged later (network outputs, `DeliveryLedger`): each set is noted with how many records
/// every such output had taken, and saved once they are all acknowledged.
final class Checkpointer {
    enum Outcome: Equatable {
        case unchanged
        case saved
        case failed(String)
    }

    /// What a set is noted with: an output's ledger and how many records it had taken.
    struct Mark: Sendable {
        let ledger: DeliveryLedger
        let taken: UInt64
    }

    static var maxPending: Int { CheckpointPolicy<Mark>.maxPending }

    let store: (any CheckpointStore)?
    private var policy = CheckpointPolicy<Mark>()

    init(store: (any CheckpointStore)?) { self.store = store }

    var lastSaved: SavedPositions { policy.lastSaved }
    var pendingCount: Int { policy.pendingCount }
    /// A save since the last fsync.
    var unsynced: Bool { policy.unsynced }
    /// When the last save succeeded (run time).
    var lastSavedAt: Duration? { policy.lastSavedAt }

    /// The saved checkpoints, or the reason they cannot be used (the store sets a damaged file aside). What was
    /// loaded counts as the last save: a save before this run noted anything (a stop while an output is full
    /// from the start) keeps it, rather than writing an empty set over it.
    func load() -> (saved: SavedPositions, problem: String?) {
        guard let store else { return (SavedPositions(), nil) }
        do {
            let saved = try store.load()
            policy.loaded(saved)
            return (saved, nil)
        } catch {
            return (SavedPositions(), "\(error)")
        }
    }

    /// Notes `positions` behind the outputs' `ledgers` and saves the newest set every output acknowledged,
    /// when it changed, or makes the last save durable when `durable` or a sync is due.
    func save(_ positions: SavedPositions, ledgers: [DeliveryLedger] = [], now: Duration, durable: Bool,
              settings: RunSettings, syncOutputs: () throws(SinkError) -> Void) -> Outcome {
        guard store != nil else { return .unchanged }
        policy.note(positions, marks: ledgers.map { Mark(ledger: $0, taken: $0.taken) })
        return saveAcknowledged(now: now, durable: durable, settings: settings, syncOutputs: syncOutputs)
    }

    /// Saves the newest noted set that every output acknowledged (nothing new is noted: reading is paused
    /// behind an output, but what was acknowledged before may still be saved).
    func saveAcknowledged(now: Duration, durable: Bool, settings: RunSettings,
                          syncOutputs: () throws(SinkError) -> Void) -> Outcome {
        guard store != nil else { return .unchanged }
        let action = policy.decide(now: now, durable: durable, syncInterval: settings.syncInterval) { $0.ledger.hasAcknowledged($0.taken) }
        return carryOut(action, now: now, syncOutputs: syncOutputs)
    }

    /// Makes the last save durable (the run ends on an output error): what came after it is read again.
    func saveDelivered(now: Duration, syncOutputs: () throws(SinkError) -> Void) -> String? {
        guard store != nil, case .failed(let problem) = carryOut(policy.makeLastSaveDurable(), now: now, syncOutputs: syncOutputs)
        else { return nil }
        return problem
    }

    /// When the next fsync is due (nil: nothing unsynced).
    func nextSync(settings: RunSettings) -> Duration? { policy.nextSync(syncInterval: settings.syncInterval) }

    private func carryOut(_ action: CheckpointPolicy<Mark>.Action, now: Duration,
                          syncOutputs: () throws(SinkError) -> Void) -> Outcome {
        guard case .save(let positions, var durable) = action, let store else { return .unchanged }
        // An output that cannot sync keeps the save from being durable, not from being made: it still spares a
        // restart in this boot from reading again what went out.
        var unsyncedOutput: SinkError?
        if durable {
            do { try syncOutputs() } catch {
                unsyncedOutput = error
                durable = false
            }
        }
        do {
            try store.save(positions, durable: durable)
        } catch {
            policy.saveFailed()
            return .failed("\(error)")
        }
        if let unsyncedOutput {
            policy.savedWithoutSync(at: now)
            return .failed("\(unsyncedOutput); the checkpoints are not made durable until it can")
        }
        policy.saved(at: now)
        return .saved
    }
}
