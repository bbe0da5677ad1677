import Glibc
import SpytailCore

/// Reconciling: every hint ends in a look at the file (fstat, stat) and `TailDecision`.
extension Tailer {
    /// Every file of ours (open or retired), every live file, and rotated copies whose arrival went untold (an
    /// overflow, a pause, a reload, the poll without inotify). Nothing while disabled: nothing is followed then, and
    /// a look would follow the live files again and move their positions past lines nobody exported (waking up
    /// looks at everything, `StateChange`'s `wakeUp`).
    func reconcileEverything() throws(SinkError) {
        looksAgainAfterPause = false
        guard state != .disabled else { return }
        for file in tracked.open where tracked[file.identity] != nil { try reconcile(file) }
        for source in configuration.sources {
            for path in discovery.liveFiles(for: source) { try reconcilePath(path) }
        }
        // Retired files may have grown meanwhile (their events lost, or dropped while disabled), and been rotated on.
        for old in tracked.retiredFiles {
            try reconcilePath(old.currentPath)
            try lookForMoved(old)
        }
        try catchUpUnseenRotations()
    }

    /// Something in `directory` was created, deleted or moved: look at every file of ours there and
    /// every live file it holds.
    func reconcileDirectory(_ directory: String) throws(SinkError) {
        for file in tracked.open
        where Paths.parent(of: file.followPath) == directory || Paths.parent(of: file.currentPath) == directory {
            if tracked[file.identity] != nil { try reconcile(file) }
        }
        try lookAtRetired(in: directory)
        // Live symlinks pointing here: their file may have been rotated, or the link points elsewhere now.
        for path in watches.linksInto(directory).sorted() { try reconcilePath(path) }
        // A folder that is there but cannot be listed now (out of descriptors: opendir needs one) says nothing about
        // its files: none is taken for deleted, each is looked at again at its next change.
        guard let listed = Paths.names(in: directory) ?? (Syscall.stat(directory) == nil ? [] : nil) else { return }
        let names = Set(listed)
        for name in names {
            let path = Paths.join(directory, name)
            if isLive(path) || tracked.parked(at: path) != nil { try reconcilePath(path) }
        }
        // Parked files that were deleted meanwhile are forgotten (nothing of them is left to read).
        for path in Array(tracked.parkedPaths) where Paths.parent(of: path) == directory && !names.contains(Paths.baseName(of: path)) {
            _ = tracked.unpark(path)
        }
    }

    /// `path` changed: the file there now, and the file we followed there before, get a look.
    func reconcilePath(_ path: String) throws(SinkError) {
        if let file = tracked.file(followedAt: path) { try reconcile(file) }
        guard let info = Syscall.stat(path) else {
            let error = Errno.current
            if error.rawValue != ENOENT && isLive(path) { warnOnce(path, "cannot open: \(error)") }
            return
        }
        guard info.isRegularFile else {
            if isLive(path) { warnOnce(path, "not a regular file (\(info.kindDescription)); skipped") }
            return
        }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let file = tracked[identity] {
            if tracked.identity(followedAt: path) != identity { try reconcile(file) }  // a drained file under its rotated name
            return
        }
        if let old = tracked.retired(identity), try reconcileRetired(old, at: path, now: FileStamp(info)) { return }
        guard isLive(path) else {
            // A rotated copy that grows under a writer that has not reopened, with content never seen: read
            // as its arrival would be (then kept, and read again as it grows).
            try catchUpUnseenRotation(path)
            return
        }
        guard tracked.identity(followedAt: path) == nil else { return }
        if let source = configuration.source(ofLive: path),
           let target = discovery.escapingTarget(path, of: source) {
            warnOnce(path, "a symlink to \(target), outside the source's folder; not read (set \"followSymlinks\": true to allow)")
            return
        }
        if tracked.parkedPaths.contains(path) {
            if tracked.isParkedUnchanged(at: path, now: FileStamp(info)) { return }
            guard try haveDescriptorsForOpening(path) else { return }
            try resume(path, from: tracked.unpark(path))
        } else {
            guard try haveDescriptorsForOpening(path) else { return }
            guard try catchUpCopiesOfNewFile(path) else { return awaitDescriptor(for: path) }
            if try followFromItsEndAtStart(path, now: identity) { return }
            // copytruncate between its copy and its truncate: the live file starts with the content of a copy read
            // (now, or when the copy arrived first) and kept at its end; it is read on from there. The live file's
            // first line is looked at only when some copy was read at all: a new file costs no extra open otherwise.
            if tracked.hasRetiredFiles || seen.hasReadOffsets(under: path) {
                let start = look(atFile: path)
                // Not looked at: read from 0 it could send the copy's lines again. It waits for a descriptor.
                if start == .noDescriptor { return awaitDescriptor(for: path) }
                if let fingerprint = start.fingerprint, let read = copyRead(of: fingerprint, under: path), Int64(info.st_size) >= read,
                   try follow(path, from: read, fingerprint: fingerprint) {
                    return
                }
            }
            try follow(path, from: 0, fingerprint: nil)
        }
    }

    /// How far a rotated copy of `live` holding `fingerprint`'s content was read (a plain copy kept retired at its
    /// end, or one let go part-way); nil when none was.
    private func copyRead(of fingerprint: Fingerprint, under live: String) -> Int64? {
        guard let read = tracked.retired(holding: fingerprint, under: live)?.checkpoint.offset ?? seen.readOffset(of: fingerprint, under: live),
              read > 0 else { return nil }
        return read
    }

    /// One message per path and problem, until the path is a readable file again.
    func warnOnce(_ path: String, _ problem: String) { warnOnce(path, message: "\(path): \(problem)") }

    func warnOnce(_ path: String, message: @autoclosure () -> String) {
        guard unreadable.insert(path).inserted else { return }
        report(.unreadable(path: path, problem: message()))
    }

    func isLive(_ path: String) -> Bool { configuration.source(ofLive: path) != nil }

    func reconcile(_ file: TailedFile) throws(SinkError) {
        // While an output is full nothing is decided: a deleted or rotated file stays open, unread bytes
        // and all, until the output drains and everything is reconciled again.
        guard !pipeline.isStalled, !condition.isStalled, let observation = file.observe() else { return }
        switch file.lifecycle.look(observation, identity: file.identity, offset: file.offset) {
        case .nothing:
            break
        case .read:
            try read(file)
        case .recoverTruncation:
            try recoverTruncation(file)
        case .rotatedAway(let followNewFile):
            try read(file)
            tracked.unfollow(file.followPath)
            locate(file)
            events.report(.rotated(path: file.followPath))
            if followNewFile { try reconcilePath(file.followPath) }
        case .deleted(let followNewFile):
            try read(file)
            noteDeleted(file)  // followed or drained: while the live file has no checkpoint, this one says where reading stands
            try close(file, reason: "deleted")
            if followNewFile { try reconcilePath(file.followPath) }
        }
    }
}
