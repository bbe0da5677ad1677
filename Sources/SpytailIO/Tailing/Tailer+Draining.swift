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
        guard !watched.contains(directory) else { return }
        file.drainWatch = directory
        addDrainWatch(directory)
    }

    func addDrainWatch(_ directory: String) {
        drainWatches[directory, default: 0] += 1
        if drainWatches[directory] == 1, !watched.contains(directory) { _ = watcher?.watch(directory) }
    }

    func releaseDrainWatch(of file: TailedFile) {
        guard let directory = file.drainWatch else { return }
        file.drainWatch = nil
        releaseDrainWatch(directory)
    }

    func releaseDrainWatch(_ directory: String) {
        guard let count = drainWatches[directory] else { return }
        if count > 1 { drainWatches[directory] = count - 1; return }
        drainWatches[directory] = nil
        if !watched.contains(directory) { watcher?.unwatch(directory) }
    }

    /// Quiet for `rotateWait` with nothing more to read: emits what it holds back and closes the descriptor,
    /// keeping its position (checkpointed, marked drained) in case it grows again.
    func retire(_ file: TailedFile) throws(SinkError) {
        locate(file)
        remember(file.source?.fingerprint, under: file.followPath)
        try file.finish(emit)
        let checkpoint = file.checkpoint()
        let watch = file.drainWatch
        file.drainWatch = nil  // handed to the retired record
        file.close()
        files[file.identity] = nil
        if byPath[file.followPath] == file.identity { byPath[file.followPath] = nil }
        events.report(.closed(path: file.currentPath, reason: "rotated away and quiet for \(settings.rotateWaitMilliseconds) ms; read again if it grows"))
        guard var checkpoint, Syscall.stat(file.currentPath).map({ FileIdentity($0) == file.identity }) == true else {
            if let watch { releaseDrainWatch(watch) }
            return
        }
        checkpoint.drained = true
        retiredCount += 1
        retired[file.identity] = RetiredFile(checkpoint: checkpoint, currentPath: file.currentPath, watch: watch, order: retiredCount)
        if retired.count > settings.retiredLimit, let oldest = retired.min(by: { $0.value.order < $1.value.order }) {
            forget(oldest.key)
        }
    }

    /// The live file followed at its path was deleted: keep where its content ended until a file is followed
    /// there again (see `deletedLive`).
    func noteDeleted(_ file: TailedFile) {
        guard var checkpoint = file.checkpoint() else { return }
        checkpoint.drained = true
        retiredCount += 1
        deletedLive[file.followPath] = (checkpoint, retiredCount)
        if deletedLive.count > settings.retiredLimit, let oldest = deletedLive.min(by: { $0.value.order < $1.value.order }) {
            deletedLive[oldest.key] = nil
        }
    }

    /// A retired file seen again at `path`: grown → drained again from its offset; shorter → forgotten.
    func revive(_ old: RetiredFile, at path: String, size: Int64) throws(SinkError) {
        let checkpoint = old.checkpoint
        guard size != checkpoint.offset else { return }
        forget(checkpoint.identity)
        guard size > checkpoint.offset else {
            report(.shorterThanRead(path: path, offset: checkpoint.offset, size: size))
            return
        }
        try drain(path, from: checkpoint.offset, fingerprint: checkpoint.fingerprint, as: checkpoint.path)
    }

    /// Opens a rotated-away plain file and drains it from `offset` (its records carry the live path). Returns
    /// false (reading nothing) when the file at `path` no longer starts with `fingerprint`'s content.
    @discardableResult
    func drain(_ path: String, from offset: Int64, fingerprint: Fingerprint, as livePath: String) throws(SinkError) -> Bool {
        let file: TailedFile
        switch try open(path, as: livePath, from: offset, fingerprint: fingerprint) {
        case .opened(let opened): file = opened
        case .notRead: return true
        case .contentMoved: return false
        }
        guard files[file.identity] == nil else { return true }
        file.lifecycle = FileLifecycle(.draining, now: uptime)
        files[file.identity] = file
        locate(file)
        events.report(.following(path: path, offset: offset))
        try read(file)
        return true
    }

    func forget(_ identity: FileIdentity) {
        guard let old = retired.removeValue(forKey: identity) else { return }
        if let watch = old.watch { releaseDrainWatch(watch) }
    }

    /// Retired files whose name in `directory` no longer leads to them (deleted, or moved where we cannot see).
    func forgetRetired(in directory: String) {
        for (identity, old) in retired where Paths.parent(of: old.currentPath) == directory {
            if Syscall.stat(old.currentPath).map({ FileIdentity($0) }) != identity { forget(identity) }
        }
    }
}
