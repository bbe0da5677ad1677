/// When `run` saves its checkpoints, and which: the commit policy as a machine, without I/O. The driver
/// (`Checkpointer`) notes each set of positions with a mark per output that acknowledges later (how many
/// records it had taken), asks what to do, carries out the save it is told, and reports how it went.
///
/// - A set is saved once every output acknowledged what it had taken when the set was noted; the newest such
///   set is the one saved, and the sets before it are dropped. Without such outputs a set is saved at once.
/// - Only a set that differs from the last one saved is written; a write that makes nothing durable is
///   followed by an fsync (a durable save of the same set) once `syncInterval` has passed, or at once when
///   the caller asks for durability (a stop, an output error).
/// - A failed save changes nothing: the same sets are asked about again after the next batch.
///
/// `Mark` is what the driver needs to ask whether an output acknowledged (a ledger and a count); the policy
/// only keeps it and hands it back to `acknowledged`.
public struct CheckpointPolicy<Mark: Sendable>: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Equatable {
        case nothing
        /// Write `positions`; `durable`: fsync it as well.
        case save(SavedPositions, durable: Bool)
    }

    /// A set of positions waiting for acknowledgements.
    struct Pending: Sendable {
        let positions: SavedPositions
        let marks: [Mark]
    }

    /// Sets waiting at most; beyond it the middle ones are dropped (a later set supersedes them anyway).
    public static var maxPending: Int { 256 }

    public private(set) var lastSaved = SavedPositions()
    private var pending: [Pending] = []
    /// The save asked for and not reported yet: the newest acknowledged set's index, and whether it syncs.
    private var asked: (newest: Int?, positions: SavedPositions, durable: Bool)?
    private var lastSync: Duration = .zero
    /// A save since the last fsync.
    public private(set) var unsynced = false
    /// When the last save succeeded (run time).
    public private(set) var lastSavedAt: Duration?

    public init() {}

    /// The positions a start found saved: the last save, until this run saves another.
    public mutating func loaded(_ positions: SavedPositions) { lastSaved = positions }

    public var pendingCount: Int { pending.count }

    /// Notes `positions`, taken when the outputs stood at `marks`, unless it is the set noted last (or, with
    /// none waiting, the set saved last).
    public mutating func note(_ positions: SavedPositions, marks: [Mark]) {
        guard pending.last.map({ $0.positions != positions }) ?? (lastSaved != positions) else { return }
        pending.append(Pending(positions: positions, marks: marks))
        if pending.count > Self.maxPending { pending.remove(at: pending.count / 2) }
    }

    /// What to do at `now`: save the newest set every output acknowledged if it differs from the last one
    /// saved, or make the last save durable when `durable` or a sync is due. Sets older than the newest
    /// acknowledged one are dropped when nothing needs writing.
    public mutating func decide(now: Duration, durable: Bool, syncInterval: Duration, acknowledged: (Mark) -> Bool) -> Action {
        var newest: Int?
        for (i, set) in pending.enumerated() where set.marks.allSatisfy(acknowledged) { newest = i }
        let positions = newest.map { pending[$0].positions } ?? lastSaved
        let syncDue = durable || (unsynced && now - lastSync >= syncInterval)
        guard positions != lastSaved || syncDue else {
            if let newest { pending.removeFirst(newest + 1) }
            asked = nil
            return .nothing
        }
        asked = (newest, positions, syncDue)
        return .save(positions, durable: syncDue)
    }

    /// The save `decide` asked for was written (at `now`).
    public mutating func saved(at now: Duration) {
        guard let (newest, positions, durable) = asked else { return }
        asked = nil
        if let newest { pending.removeFirst(newest + 1) }
        if positions != lastSaved { unsynced = !durable }
        if durable {
            lastSync = now
            unsynced = false
        }
        lastSaved = positions
        lastSavedAt = now
    }

    /// The save `decide` asked for was written but not made durable (the outputs could not be synced first): it
    /// counts until a power loss, and the sync is tried again a `syncInterval` later (not at every turn).
    public mutating func savedWithoutSync(at now: Duration) {
        guard asked != nil else { return }
        asked?.durable = false
        saved(at: now)
        unsynced = true
        lastSync = now
    }

    /// The save `decide` asked for failed: everything stays as it was.
    public mutating func saveFailed() { asked = nil }

    /// The run ends on an output error: the last save made durable, if it is not (what came after it is read
    /// again next time). Reported like any save.
    public mutating func makeLastSaveDurable() -> Action {
        guard unsynced else { return .nothing }
        asked = (nil, lastSaved, true)
        return .save(lastSaved, durable: true)
    }

    /// When the next fsync is due (nil: nothing unsynced).
    public func nextSync(syncInterval: Duration) -> Duration? { unsynced ? lastSync + syncInterval : nil }
}
