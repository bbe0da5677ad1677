import SpytailCore

/// Where reading stands for the files `run` holds no descriptor for, each checkpointed like an open one:
/// - *parked* files (live ones closed under `maxOpenFiles`; while disabled, every file, a rotated copy being
///   drained too), by live path, all of a path's together: resumed there as a restart resumes them;
/// - *retired* rotated-away files, read to their end and closed while quiet, by identity: read again if they
///   grow, now or after a restart;
/// - *deleted* live files (read to their end), and the newest gzip copy of a chain read whole, by live path,
///   while the file followed there has no checkpoint of its own (none yet, or empty): checkpointed as
///   drained, so that a restart resumes the path's chain from that content (a copy-and-delete rotator's
///   gzip holds it) instead of reading the chain again as a first start would.
/// Retired and deleted positions are bounded, the oldest forgotten first; parked ones are live files.
struct KeptPositions {
    /// Never an empty list.
    private(set) var parked: [String: [Checkpoint]] = [:]
    private(set) var retired: [FileIdentity: RetiredFile] = [:]
    private var deleted: [String: (checkpoint: Checkpoint, order: Int)] = [:]
    /// One sequence for retired and deleted positions: the order they were kept in.
    private var order = 0

    /// Every kept position, for the checkpoints.
    var checkpoints: [Checkpoint] {
        parked.values.flatMap { $0 } + retired.values.map(\.checkpoint) + deleted.values.map(\.checkpoint)
    }

    // MARK: parked

    /// Keeps `checkpoint` under the live `path`, beside the others there (a copy being drained and the live file
    /// are both parked when disabled): one per file, the newest position of a file replacing its older one.
    mutating func park(_ checkpoint: Checkpoint, at path: String) {
        parked[path, default: []].removeAll { $0.identity == checkpoint.identity }
        parked[path]!.append(checkpoint)
    }

    /// The positions parked under `path`, no longer kept (empty: none).
    mutating func unpark(_ path: String) -> [Checkpoint] { parked.removeValue(forKey: path) ?? [] }

    /// Every parked position, by path, no longer kept.
    mutating func unparkAll() -> [(path: String, checkpoints: [Checkpoint])] {
        defer { parked = [:] }
        return parked.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    // MARK: retired

    /// Keeps a rotated-away file's position (marked drained); returns the oldest retired file when the bound
    /// made room by forgetting it (its folder hold is the caller's to release).
    mutating func retire(_ checkpoint: Checkpoint, at currentPath: String, watch: String?, limit: Int) -> RetiredFile? {
        var checkpoint = checkpoint
        checkpoint.drained = true
        order += 1
        retired[checkpoint.identity] = RetiredFile(checkpoint: checkpoint, currentPath: currentPath, watch: watch, order: order)
        guard retired.count > limit, let oldest = retired.min(by: { $0.value.order < $1.value.order }) else { return nil }
        return retired.removeValue(forKey: oldest.key)
    }

    /// Forgets a retired file; returns it when there was one.
    mutating func forgetRetired(_ identity: FileIdentity) -> RetiredFile? { retired.removeValue(forKey: identity) }

    /// Whether content with `fingerprint`, followed under `live`, was retired.
    func retiredHolds(_ fingerprint: Fingerprint, under live: String) -> Bool { retired(holding: fingerprint, under: live) != nil }

    /// The retired file holding content `fingerprint` of `live`, if one does.
    func retired(holding fingerprint: Fingerprint, under live: String) -> RetiredFile? {
        retired.values.first { $0.checkpoint.path == live && $0.checkpoint.fingerprint == fingerprint }
    }

    // MARK: deleted

    /// The live file followed at `checkpoint.path` was deleted: keeps where its content ended (drained).
    mutating func noteDeleted(_ checkpoint: Checkpoint, limit: Int) {
        var checkpoint = checkpoint
        checkpoint.drained = true
        order += 1
        deleted[checkpoint.path] = (checkpoint, order)
        if deleted.count > limit, let oldest = deleted.min(by: { $0.value.order < $1.value.order }) {
            deleted[oldest.key] = nil
        }
    }

    /// A file is followed at `path` again and has a checkpoint: that speaks for the path now.
    mutating func followed(_ path: String) { deleted[path] = nil }

    /// Paths with a deleted file's position kept.
    var deletedPaths: Dictionary<String, (checkpoint: Checkpoint, order: Int)>.Keys { deleted.keys }

    // MARK: reload

    /// A reloaded config matches fewer live paths: their parked and deleted positions are dropped.
    mutating func keep(where isLive: (String) -> Bool) {
        parked = parked.filter { isLive($0.key) }
        deleted = deleted.filter { isLive($0.key) }
    }
}
