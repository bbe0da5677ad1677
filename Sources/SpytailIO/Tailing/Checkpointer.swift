import SpytailCore

/// The checkpoint policy in one place: an in-memory view of the last save, written only when it changed
/// (or when a sync is due), fsync'ed at most every `syncInterval` and at exit, through the store's tmp +
/// fsync + rename. The caller flushes every output first, so a checkpoint is never ahead of the data; the
/// run's condition says whether saving is allowed and says a failure (and the recovery) once.
final class Checkpointer {
    enum Outcome: Equatable {
        case unchanged
        case saved
        case failed(String)
    }

    let store: (any CheckpointStore)?
    private(set) var lastSaved: [Checkpoint] = []
    private var lastSync: Duration = .zero
    /// A save since the last fsync.
    private(set) var unsynced = false
    /// When the last save succeeded (run time).
    private(set) var lastSavedAt: Duration?

    init(store: (any CheckpointStore)?) { self.store = store }

    /// The saved checkpoints, or the reason they cannot be used (the store sets a damaged file aside).
    func load() -> (checkpoints: [Checkpoint], problem: String?) {
        guard let store else { return ([], nil) }
        do { return (try store.load(), nil) } catch { return ([], "\(error)") }
    }

    /// Saves `checkpoints` when they changed, or makes them durable when `durable` or a sync is due.
    func save(_ checkpoints: [Checkpoint], now: Duration, durable: Bool, settings: RunSettings) -> Outcome {
        let syncDue = durable || (unsynced && now - lastSync >= settings.syncInterval)
        guard let store, checkpoints != lastSaved || syncDue else { return .unchanged }
        do {
            try store.save(checkpoints, durable: syncDue)
        } catch {
            return .failed("\(error)")
        }
        if checkpoints != lastSaved { unsynced = !syncDue }
        if syncDue {
            lastSync = now
            unsynced = false
        }
        lastSaved = checkpoints
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
