import Glibc
import SpytailCore

/// A rotated-away file is followed through its descriptor by what happens to it, wherever it was moved:
/// its folder is watched while it is drained, it is closed only once it really stopped growing, and then it
/// is *retired* (descriptor closed, position kept and checkpointed): if it grows again (a writer that never
/// reopens), it is read again from there, now or after a restart.
extension Tailer {
    /// Finds where a drained file is now (its descriptor's path) and watches that folder if nothing else does.
    func locate(_ file: TailedFile) {
        guard let now = Syscall.pathOfDescriptor(file.descriptor) else { return }
        file.currentPath = now
        let directory = Paths.parent(of: now)
        guard file.drainWatch != directory else { return }
        releaseDrainWatch(of: file)
        guard !watches.isWanted(directory) else { return }
        file.drainWatch = directory
        watches.hold(directory)
    }

    func releaseDrainWatch(of file: TailedFile) {
        guard let directory = file.drainWatch else { return }
        file.drainWatch = nil
        watches.release(directory)
    }

    /// Quiet for `rotateWait` with nothing more to read (or its descriptor wanted under the cap: `reason`): emits
    /// the entry it holds back and closes the descriptor, keeping its position (checkpointed, marked drained) in
    /// case it grows again. A last line without its newline is left unread, for when it grows (its writer may
    /// finish it) or is compressed. A file whose first line is still unfinished has no content to keep a position
    /// in: it is let go unread, and read as new content once that line is finished (or it is compressed).
    func retire(_ file: TailedFile, reason: String? = nil) throws(SinkError) {
        locate(file)
        try file.flushPendingEntry(emit)
        let checkpoint = file.checkpoint()
        seen.remember(file.source?.fingerprint, under: file.followPath, readTo: checkpoint?.offset ?? 0)
        let watch = file.drainWatch
        file.drainWatch = nil  // handed to the retired record
        file.close()
        tracked.remove(file)
        events.report(.closed(path: file.currentPath, reason: reason ?? "rotated away and quiet for \(settings.rotateWaitMilliseconds) ms; read again if it grows"))
        guard let checkpoint, let stamp = FileStamp(file.currentPath), stamp.identity == file.identity else {
            if let watch { watches.release(watch) }
            return
        }
        let forgotten = tracked.retire(checkpoint, at: file.currentPath, watch: watch, stamp: stamp, limit: settings.retiredLimit)
        if let watch = forgotten?.watch { watches.release(watch) }
    }

    /// The live file followed at its path was deleted: keep where its content ended until a file is followed
    /// there again (`TrackedFiles`' gone entries).
    func noteDeleted(_ file: TailedFile) {
        guard let checkpoint = file.checkpoint() else { return }
        tracked.noteGone(checkpoint, limit: settings.retiredLimit)
    }

    /// A retired file seen again at `path`: grown → drained again from its offset; shorter → forgotten.
    func revive(_ old: RetiredFile, at path: String, size: Int64) throws(SinkError) {
        let checkpoint = old.checkpoint
        switch FileLifecycle.revive(size: size, offset: checkpoint.offset) {
        case .unchanged:
            return
        case .forget:
            forget(checkpoint.identity)
            report(.shorterThanRead(path: path, offset: checkpoint.offset, size: size))
        case .drainAgain:
            // Kept retired, position and all, until a descriptor is free to drain it with (`awaitingDescriptors`);
            // also when the open fails for want of one after all: the drained file replaces the retired entry.
            guard try haveDescriptorsForOpening(path) else { return }
            if try !drain(path, from: checkpoint.offset, fingerprint: checkpoint.fingerprint, as: checkpoint.path) { letGo(old) }
        }
    }

    /// Opens a rotated-away plain file and drains it from `offset` (its records carry the live path). Returns
    /// false (reading nothing) when the file at `path` no longer starts with `fingerprint`'s content, or is gone.
    @discardableResult
    func drain(_ path: String, from offset: Int64, fingerprint: Fingerprint, as livePath: String) throws(SinkError) -> Bool {
        let file: TailedFile
        switch try open(path, as: livePath, from: offset, fingerprint: fingerprint) {
        case .opened(let opened): file = opened
        case .notRead: return true
        case .contentMoved: return false
        }
        guard tracked[file.identity] == nil else { return true }
        file.lifecycle = FileLifecycle(.draining, now: uptime)
        if let replaced = tracked.addDrained(file)?.watch { watches.release(replaced) }
        locate(file)
        events.report(.following(path: path, offset: offset))
        try read(file)
        return true
    }

    func forget(_ identity: FileIdentity) {
        if let watch = tracked.forgetRetired(identity)?.watch { watches.release(watch) }
    }

    /// The retired files in `directory`, one stat each: one whose name no longer leads to it (deleted, moved
    /// where we cannot see) is let go; one still there is read again if it grew (its write events may have
    /// been folded into this look at the folder).
    func lookAtRetired(in directory: String) throws(SinkError) {
        for old in tracked.retiredFiles where Paths.parent(of: old.currentPath) == directory {
            guard let info = Syscall.stat(old.currentPath), FileIdentity(info) == old.checkpoint.identity else {
                letGo(old)
                continue
            }
            _ = try reconcileRetired(old, at: old.currentPath, now: FileStamp(info))
        }
    }

    /// A retired file no longer at the path it was seen at, its moves untold (lost to an overflow, dropped while
    /// disabled): looked at where it is now, the copy of its live path under its inode (one stat a copy). Without
    /// this, a file retired as `a.log.1` that grew (its writer never reopened) and was rotated on to `a.log.2` before
    /// it could be read again was looked for at `a.log.1` only, which held other content by then, and the look at
    /// the chain stopped at that seen copy: its growth was never read (simulator seed 15497). In no copy (gzipped,
    /// deleted, moved out), it is let go as `lookAtRetired` does, and the copy holding its content, if any, is read
    /// on from where reading stopped as at its arrival.
    func lookForMoved(_ old: RetiredFile) throws(SinkError) {
        let identity = old.checkpoint.identity
        guard let old = tracked.retired(identity), !old.isWhereItWasRetired,
              let source = configuration.source(ofLive: old.checkpoint.path) else { return }
        let copies = discovery.rotatedCopies(of: old.checkpoint.path, source: source)
        if let moved = copies.first(where: { Syscall.stat($0).map({ FileIdentity($0) }) == identity }) {
            tracked.moveRetired(identity, to: moved)
            return try reconcilePath(moved)
        }
        try letGoAndReadOnItsCopy(old, copies: copies)
    }

    /// `old` let go where it was not found as it was (its inode gone, or holding other content: deleted, the inode
    /// reused): the newest copy of its live path that holds its content (renamed, gzipped), if one does, is read on
    /// from where reading stopped as at its arrival, which may have been told already, or lost to an overflow.
    /// `copies`: the live path's copies, when the caller listed them already.
    func letGoAndReadOnItsCopy(_ old: RetiredFile, copies listed: [String]? = nil) throws(SinkError) {
        letGo(old)
        guard let copies = listed ?? configuration.source(ofLive: old.checkpoint.path).map({
            discovery.rotatedCopies(of: old.checkpoint.path, source: $0)
        }) else { return }
        for copy in copies.reversed() {
            switch look(atFile: copy) {
            case .content(old.checkpoint.fingerprint): return try catchUpUnseenRotation(copy, arrived: false)
            case .noDescriptor: awaitDescriptor(for: copy)  // looked at again, as at its arrival, once one is free
            case .content, .nothing: continue
            }
        }
    }

    /// `old` seen again at `path`, `now` as it is: unchanged, nothing is opened; grown with its content,
    /// drained again; other content under its inode (deleted, the inode reused), let go. False when let go.
    func reconcileRetired(_ old: RetiredFile, at path: String, now: FileStamp) throws(SinkError) -> Bool {
        let size = now.size
        // As long as it was read, and as it was when last seen: nothing to read. As long but changed (its inode reused
        // for a new file as long, or rewritten in place), it is looked at.
        let sameLength = FileLifecycle.revive(size: size, offset: old.checkpoint.offset) == .unchanged
        if sameLength && old.stamp == now { return true }
        // No descriptor free to look at it: it stays retired and is looked at again once one is (a look that could not
        // open it would take it for other content and let it go, its growth then read as a finished copy's).
        guard try haveDescriptorsForOpening(path) else { return true }
        switch look(atFile: path) {
        case .content(old.checkpoint.fingerprint):
            if sameLength { tracked.restampRetired(old.checkpoint.identity, now) }
            try revive(old, at: path, size: size)
            return true
        case .noDescriptor:
            // Taken since the gauge said yes: the same wait.
            awaitDescriptor(for: path)
            return true
        case .content, .nothing:
            try letGoAndReadOnItsCopy(old)
            return false
        }
    }

    /// A retired file no longer where it was (renamed, gzipped, deleted, its inode reused): its content may turn
    /// up in a copy, which is then read from where reading stopped (`catchUpLonger`).
    /// Its mark never goes back: a copy of its content read on past it meanwhile (a resume read the gzip copy from the
    /// mark while this entry still waited to be let go) moved it on, and a mark set back to the retired offset had the
    /// next look read that copy's lines again (simulator seed 47265).
    func letGo(_ old: RetiredFile) {
        seen.remember(old.checkpoint.fingerprint, under: old.checkpoint.path, readAtLeastTo: old.checkpoint.offset)
        forget(old.checkpoint.identity)
    }
}
