import SpytailCore

/// Every file `run` keeps track of, one entry each, the entry's case its state:
/// - **open**: a descriptor held, *following* its live path or *draining* (rotated away, read through the
///   descriptor wherever it went): its `FileLifecycle` says which;
/// - **parked**: closed to stay under `maxOpenFiles` (and, while disabled, every file, a copy being drained
///   too), its position kept under its live path: resumed there as a restart resumes it;
/// - **retired**: rotated away, read to its end and closed while quiet: read again from its position if it grows,
///   now or after a restart;
/// - **gone**: the live file deleted and read to its end (or the newest gzip copy of a chain read whole), kept
///   while the file followed at that path has no checkpoint of its own (none yet, or empty): checkpointed as
///   drained, so that a restart resumes the path's chain from that content instead of reading it as new.
///
/// A state change is one call here (`park`, `retire`, `remove`…), never an entry dropped from one place and
/// put into another by the caller. Every kept position is checkpointed like an open file's. Retired and gone
/// entries are bounded, the oldest forgotten first; parked ones are live files.
struct TrackedFiles {
    enum Entry {
        case open(TailedFile)
        /// `seenAs`: the file as it was when parked, its content known (nil: a position from the checkpoint file or a
        /// resume put off, never checked against the file by this process).
        case parked(Checkpoint, seenAs: FileStamp?)
        case retired(RetiredFile)
        /// `order`: when it was kept, to forget the oldest first.
        case gone(Checkpoint, order: Int)

        var checkpoint: Checkpoint? {
            switch self {
            case .open(let file): file.checkpoint()
            case .parked(let checkpoint, _), .gone(let checkpoint, _): checkpoint
            case .retired(let old): old.checkpoint
            }
        }

        var state: State {
            switch self {
            case .open(let file): file.lifecycle.isFollowed ? .following : .draining
            case .parked: .parked
            case .retired: .retired
            case .gone: .gone
            }
        }
    }

    enum State: Equatable { case following, draining, parked, retired, gone }

    /// An entry's key: an open or retired file by its identity (it is on the disk: no other file has it now); a
    /// parked position by live path and identity (one loaded from the checkpoints may name an inode reused
    /// since); a gone position by live path (one per path: the newest).
    private enum Key: Hashable {
        case file(FileIdentity)
        case parked(String, FileIdentity)
        case gone(String)
    }

    private var entries: [Key: Entry] = [:]
    /// Which open file each live path follows (two names may lead to one file: a hard link).
    private var followed: [String: FileIdentity] = [:]
    /// The identities parked under each live path, in the order they were parked (empty: a resume with no position
    /// saved waits there, `park(_:at:)`).
    private var parkedAt: [String: [FileIdentity]] = [:]
    private(set) var openCount = 0
    private var retiredCount = 0
    private var goneCount = 0
    /// One sequence for retired and gone entries: the order they were kept in.
    private var order = 0

    // MARK: looking up

    /// The open file with `identity`.
    subscript(identity: FileIdentity) -> TailedFile? {
        if case .open(let file) = entries[.file(identity)] { return file }
        return nil
    }

    /// Every open file, as a snapshot (callers may close files while they go through it).
    var open: [TailedFile] {
        entries.values.compactMap { if case .open(let file) = $0 { file } else { nil } }
    }

    /// Every entry, in no order.
    var all: [Entry] { Array(entries.values) }

    /// The identity followed at `path` (its file may have been closed since: a second live name's).
    func identity(followedAt path: String) -> FileIdentity? { followed[path] }
    func file(followedAt path: String) -> TailedFile? { followed[path].flatMap { self[$0] } }
    /// The live paths followed now, sorted.
    var followedPaths: [String] { followed.keys.sorted() }

    /// The retired file with `identity`.
    func retired(_ identity: FileIdentity) -> RetiredFile? {
        if case .retired(let old) = entries[.file(identity)] { return old }
        return nil
    }

    /// Every retired file, oldest first.
    var retiredFiles: [RetiredFile] {
        entries.values.compactMap { if case .retired(let old) = $0 { old } else { nil } }.sorted { $0.order < $1.order }
    }

    /// Some file is retired.
    var hasRetiredFiles: Bool { retiredCount > 0 }

    /// The retired file holding content `fingerprint` of `live`, if one does.
    func retired(holding fingerprint: Fingerprint, under live: String) -> RetiredFile? {
        guard retiredCount > 0 else { return nil }
        for case .retired(let old) in entries.values where old.checkpoint.path == live && old.checkpoint.fingerprint == fingerprint {
            return old
        }
        return nil
    }

    /// The contents open under `live` (its file and rotated copies being drained).
    func openContents(under live: String) -> Set<Fingerprint> {
        Set(open.filter { $0.followPath == live }.compactMap { $0.source?.fingerprint })
    }

    /// The positions parked under `path` (nil: none).
    func parked(at path: String) -> [Checkpoint]? {
        parkedAt[path].map { identities in identities.compactMap { parkedCheckpoint(path, $0) } }
    }

    /// The live paths with positions parked.
    var parkedPaths: Dictionary<String, [FileIdentity]>.Keys { parkedAt.keys }

    /// The live paths with a gone file's position kept.
    var gonePaths: [String] {
        guard goneCount > 0 else { return [] }
        return entries.keys.compactMap { if case .gone(let path) = $0 { path } else { nil } }
    }

    /// Every kept position and every open file's, for the checkpoints.
    var checkpoints: [Checkpoint] { entries.values.compactMap(\.checkpoint) }

    /// The positions of the files without a descriptor.
    var keptCheckpoints: [Checkpoint] {
        entries.values.compactMap { if case .open = $0 { nil } else { $0.checkpoint } }
    }

    // MARK: open files

    /// `file` is followed at `path`. Returns the retired entry it replaces (its inode met again under a live
    /// name): its folder hold is the caller's to release.
    mutating func follow(_ file: TailedFile, at path: String) -> RetiredFile? {
        defer { followed[path] = file.identity }
        return insertOpen(file)
    }

    /// `path` leads to a file already open (under another live name).
    mutating func alias(_ path: String, to identity: FileIdentity) { followed[path] = identity }

    /// A rotated-away file drained under its new name (no live path leads to it). Returns the retired entry it
    /// replaces, as `follow` does.
    mutating func addDrained(_ file: TailedFile) -> RetiredFile? { insertOpen(file) }

    /// `path` no longer leads to the file followed there (it was rotated away: that one drains on).
    mutating func unfollow(_ path: String) { followed[path] = nil }

    /// `file` is closed and forgotten, and its live path with it when that still leads to it.
    mutating func remove(_ file: TailedFile) {
        guard case .open = entries[.file(file.identity)] else { return }
        entries[.file(file.identity)] = nil
        openCount -= 1
        if followed[file.followPath] == file.identity { followed[file.followPath] = nil }
    }

    private mutating func insertOpen(_ file: TailedFile) -> RetiredFile? {
        let replaced = entries.updateValue(.open(file), forKey: .file(file.identity))
        switch replaced {
        case .open: return nil
        case .retired(let old):
            retiredCount -= 1
            openCount += 1
            return old
        default:
            openCount += 1
            return nil
        }
    }

    // MARK: parked

    /// An open file is closed to stay under the cap (or because the state became disabled): it is parked under
    /// its live path at its resume offset (a held line or pending entry is read again on reopening, not emitted
    /// now; a file with nothing delivered yet simply starts again from 0), and no path follows it. The caller
    /// closes the descriptor afterwards (the checkpoint's tail hash is read through it).
    mutating func park(_ file: TailedFile) {
        let checkpoint = file.checkpoint()
        let stamp = FileStamp(descriptor: file.descriptor)
        file.lifecycle.park()
        remove(file)
        followed[file.followPath] = nil
        if let checkpoint { park(checkpoint, seenAs: stamp) }
    }

    /// Keeps `checkpoint` under its live path, beside the others there (a copy being drained and the live file are
    /// both parked when disabled): one per file, the newest position of a file replacing its older one. `stamp`: the
    /// file as it was then, when it was open (see `isParkedUnchanged`).
    mutating func park(_ checkpoint: Checkpoint, seenAs stamp: FileStamp? = nil) {
        entries[.parked(checkpoint.path, checkpoint.identity)] = .parked(checkpoint, seenAs: stamp)
        parkedAt[checkpoint.path, default: []].removeAll { $0 == checkpoint.identity }
        parkedAt[checkpoint.path]!.append(checkpoint.identity)
    }

    /// A resume of `path` from `checkpoints` put off (no descriptor free): they are parked there, and so is the resume
    /// itself when there are none (a live file followed empty at the last stop: its rotated copies are read when the
    /// path is looked at again, as the resume would have).
    mutating func park(_ checkpoints: [Checkpoint], at path: String) {
        for checkpoint in checkpoints { park(checkpoint) }
        if parkedAt[path] == nil { parkedAt[path] = [] }
    }

    /// Every open file parked at once (the state became `disabled`); returns them for the caller to close. Every
    /// live name is let go, a second one's too.
    mutating func parkEveryOpenFile() -> [TailedFile] {
        let files = open
        for file in files { park(file) }
        followed = [:]
        return files
    }

    /// The positions parked under `path`, no longer kept (empty: none).
    mutating func unpark(_ path: String) -> [Checkpoint] {
        guard let identities = parkedAt.removeValue(forKey: path) else { return [] }
        return identities.compactMap { entries.removeValue(forKey: .parked(path, $0)).flatMap(\.checkpoint) }
    }

    /// Every parked position, by path in path order, no longer kept.
    mutating func unparkAll() -> [(path: String, checkpoints: [Checkpoint])] {
        parkedAt.keys.sorted().map { ($0, unpark($0)) }
    }

    private func parkedCheckpoint(_ path: String, _ identity: FileIdentity) -> Checkpoint? {
        if case .parked(let checkpoint, _) = entries[.parked(path, identity)] { return checkpoint }
        return nil
    }

    /// Whether the file at `path`, `now` as it is, is still a parked one with nothing new to read, and nothing else
    /// parked there is left to read: it can stay parked, no descriptor spent on it. Only a file parked by this
    /// process from its open descriptor qualifies, with the same inode, size and modification time as then, read up
    /// to its end: a position from the checkpoint file, or a resume put off, was never checked against the file, and
    /// an inode reused for a new file that happens to be as long would pass for it (simulator seed 40929). An empty
    /// file holds nothing of a parked content, which had a first line at least (copytruncate emptied it: the content
    /// is in the copy).
    func isParkedUnchanged(at path: String, now: FileStamp) -> Bool {
        guard now.size > 0, let identities = parkedAt[path] else { return false }
        var found = false
        for identity in identities {
            guard case .parked(let checkpoint, let stamp) = entries[.parked(path, identity)] else { continue }
            if checkpoint.drained { continue }  // under the live file's inode it is not it: the inode was reused, or moved back
            guard identity == now.identity, stamp == now, checkpoint.offset == now.size else { return false }
            found = true
        }
        return found
    }

    // MARK: retired

    /// Keeps a rotated-away file's position (marked drained), closed (an open entry of that file is replaced).
    /// Returns the oldest retired file when the bound made room by forgetting it (its folder
    /// hold is the caller's to release).
    mutating func retire(_ checkpoint: Checkpoint, at currentPath: String, watch: String?, stamp: FileStamp? = nil, limit: Int) -> RetiredFile? {
        var checkpoint = checkpoint
        checkpoint.drained = true
        order += 1
        let old = RetiredFile(checkpoint: checkpoint, currentPath: currentPath, watch: watch, order: order, stamp: stamp)
        switch entries.updateValue(.retired(old), forKey: .file(checkpoint.identity)) {
        case .retired: break
        case .open(let file):
            openCount -= 1
            retiredCount += 1
            if followed[file.followPath] == file.identity { followed[file.followPath] = nil }
        default: retiredCount += 1
        }
        guard retiredCount > limit, let oldest = retiredFiles.first else { return nil }
        return forgetRetired(oldest.checkpoint.identity)
    }

    /// A retired file found under another name (rotated on while its moves went untold): looked at there from now on.
    /// A retired file looked at and found to hold its content still, unchanged: `stamp` is how it is now.
    mutating func restampRetired(_ identity: FileIdentity, _ stamp: FileStamp) {
        guard case .retired(var old) = entries[.file(identity)] else { return }
        old.stamp = stamp
        entries[.file(identity)] = .retired(old)
    }

    mutating func moveRetired(_ identity: FileIdentity, to path: String) {
        guard case .retired(var old) = entries[.file(identity)] else { return }
        old.currentPath = path
        entries[.file(identity)] = .retired(old)
    }

    /// Forgets a retired file; returns it when there was one.
    mutating func forgetRetired(_ identity: FileIdentity) -> RetiredFile? {
        guard case .retired(let old) = entries[.file(identity)] else { return nil }
        entries[.file(identity)] = nil
        retiredCount -= 1
        return old
    }

    // MARK: gone

    /// The live file followed at `checkpoint.path` was deleted: keeps where its content ended (drained).
    mutating func noteGone(_ checkpoint: Checkpoint, limit: Int) {
        var checkpoint = checkpoint
        checkpoint.drained = true
        order += 1
        if entries.updateValue(.gone(checkpoint, order: order), forKey: .gone(checkpoint.path)) == nil { goneCount += 1 }
        guard goneCount > limit else { return }
        let gone = entries.compactMap { key, entry in if case .gone(_, let order) = entry { (key, order) } else { nil } }
        if let oldest = gone.min(by: { $0.1 < $1.1 }) {
            entries[oldest.0] = nil
            goneCount -= 1
        }
    }

    /// A file is followed at `path` again and has a checkpoint: that speaks for the path now.
    mutating func dropGone(at path: String) {
        if entries.removeValue(forKey: .gone(path)) != nil { goneCount -= 1 }
    }

    // MARK: reload

    /// A reloaded config matches fewer live paths: their parked and gone positions are dropped.
    mutating func keep(where isLive: (String) -> Bool) {
        for path in parkedAt.keys where !isLive(path) { _ = unpark(path) }
        for path in gonePaths where !isLive(path) { dropGone(at: path) }
    }
}
