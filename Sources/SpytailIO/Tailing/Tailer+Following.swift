import Glibc
import SpytailCore

/// Opening, following, reading and closing files, under the open-descriptor cap.
extension Tailer {
    /// Opens `path` and follows it from `offset`. With a fingerprint, returns false (and follows nothing) when
    /// the file opened no longer starts with that content, or is gone: it was rotated between the look and the open.
    @discardableResult
    func follow(_ path: String, from offset: Int64, fingerprint: Fingerprint?) throws(SinkError) -> Bool {
        // A symlink to another source's live file (`/var/log/containers` beside `/var/log/pods`): that file is
        // read under its own path, with its own rotations, once.
        let isLink = Syscall.isSymlink(path)
        if isLink, let target = PathDiscovery.realPath(path), target != path, isLive(target) { return true }
        let file: TailedFile
        switch try open(path, as: path, from: offset, fingerprint: fingerprint) {
        case .opened(let opened): file = opened
        case .notRead: return true
        case .contentMoved: return false
        }
        unreadable.remove(path)
        if let other = tracked[file.identity] {  // the same file under a second live name: read it once
            tracked.alias(path, to: other.identity)
            return true
        }
        if state == .idle { file.skippedFrom = offset }
        if let replaced = tracked.follow(file, at: path)?.watch { watches.release(replaced) }
        // Its checkpoint speaks for the path once it has one (`commit`); an empty file has none yet, so a deleted
        // predecessor's position stays till then (a restart resumes that content, not reads the chain as new).
        if file.source != nil { tracked.dropGone(at: path) }
        // A symlink followed for the first time: the folder it points into is watched from now on.
        if isLink, !watches.isLinked(path) { rewatch() }
        events.report(.following(path: path, offset: offset))
        try readFollowedBacklog(file, from: offset)
        try read(file)
        return true
    }

    enum Opening {
        case opened(TailedFile)
        /// Gone, or unreadable (said once).
        case notRead
        /// It no longer starts with the fingerprint given, or is gone: rotated between the look and the open.
        case contentMoved
    }

    /// The fingerprint of the file at `path`, or why there is none (`FileLook`; the open-failure seam plays a look
    /// without a descriptor too). Every look the run makes at a first line goes through here.
    func look(atFile path: String) -> FileLook {
        if openFailure?() != nil { return .noDescriptor }
        return Fingerprinter.look(atFile: path)
    }

    /// Opens `path` (content of `livePath`) at `offset`, making room under the descriptor cap, and checks it
    /// still holds the content `fingerprint` names.
    func open(_ path: String, as livePath: String, from offset: Int64, fingerprint: Fingerprint?) throws(SinkError) -> Opening {
        try makeRoom()
        let file: TailedFile
        do throws(ReadError) {
            if let errno = openFailure?() { throw ReadError(path: path, cause: .open(errno)) }
            let source = configuration.sourceIndex(ofLive: livePath)
            file = try TailedFile(path: path, followPath: livePath, offset: offset, fingerprint: fingerprint, source: source,
                                  parser: configuration.parser(forSource: source), now: uptime,
                                  epoch: { [unowned self] in marks.epoch(of: $0) })
        } catch {
            // Gone between the look and the open (a rotation, a compressor removing the plain copy it gzipped).
            // Content named by its fingerprint moved with it: the caller looks again (a resume had taken that
            // content for found and seen, and its arrival elsewhere for nothing new: it was lost). Otherwise
            // the deletion and the new file are events of their own.
            if case .open(let errno) = error.cause, errno.rawValue == ENOENT { return fingerprint == nil ? .notRead : .contentMoved }
            // The descriptors the budget saw free were taken meanwhile (another thread, a limit lowered): the path
            // waits for one as if the budget had said so, and is looked at again (it may get no event of its own).
            if error.wantsDescriptor {
                awaitDescriptor(for: path)
                return .notRead
            }
            warnOnce(path, message: "\(error)")
            return .notRead
        }
        guard fingerprint == nil || file.headMatches() else {
            file.close()
            return .contentMoved
        }
        return .opened(file)
    }

    /// Reads what the file holds past our offset; returns the bytes read.
    @discardableResult
    func read(_ file: TailedFile) throws(SinkError) -> Int64 {
        guard file.isOpen, !pipeline.isStalled else { return 0 }
        let pipeline = self.pipeline
        let linesBefore = file.stream?.lineCount ?? 0
        let result = try file.readToEnd(buffer: buffer, now: uptime, keepGoing: { !pipeline.isStalled }, emit)
        countRead(file.followPath, bytes: result.bytes, lines: (file.stream?.lineCount ?? 0) - linesBefore)
        if result.headChanged { try recoverTruncation(file) }
        return result.bytes
    }

    /// Emits what the file holds back, closes it and forgets it.
    func close(_ file: TailedFile, reason: String) throws(SinkError) {
        file.lifecycle.close()
        try file.finish(emit)
        // How far it was read: a copy of it that turns up later (gzipped) is read from there, not from an older mark.
        seen.remember(file.source?.fingerprint, under: file.followPath, readTo: file.checkpoint()?.offset)
        releaseDrainWatch(of: file)
        file.close()
        tracked.remove(file)
        events.report(.closed(path: file.followPath, reason: reason))
    }

    /// A file's resume or first read may hold this many descriptors at once besides its own: a rotated member read
    /// beside it, a look at a member's first line, the checkpoint file.
    private static var descriptorsForOpening: Int { 4 }

    /// Whether `path` can be resumed or followed now. Something else may hold the descriptors the budget left (a
    /// limit lowered while running, many connections): then the quietest open files give theirs back first,
    /// positions kept. False even so: `path` stays as it is — parked, or not followed yet — and is looked at
    /// again every `descriptorRetry` (or at its next change) until one is free, since a look at its rotated chain
    /// now would find no first line anywhere and take its content for gone (a gap, then everything read again).
    func haveDescriptorsForOpening(_ path: String) throws(SinkError) -> Bool {
        if descriptorsFree(Self.descriptorsForOpening) { return openable(path) }
        if tracked.openCount > 0 { try makeRoom(limit: tracked.openCount) }
        if descriptorsFree(Self.descriptorsForOpening) { return openable(path) }
        awaitDescriptor(for: path)
        return false
    }

    /// `path` could not be opened for want of a descriptor: said once, looked at again every `descriptorRetry`.
    func awaitDescriptor(for path: String) {
        warnOnce(path, "cannot open: no descriptor free (the process's open-file limit, RLIMIT_NOFILE, is reached); its position is kept and it is looked at again every second until one is free")
        awaitingDescriptors.insert(path)
        if descriptorRetryAt == nil { descriptorRetryAt = uptime + Self.descriptorRetry }
    }

    /// `path` has the descriptors it needs: no longer waiting for them.
    private func openable(_ path: String) -> Bool {
        awaitingDescriptors.remove(path)
        return true
    }

    /// How often paths left unopened for want of a descriptor are looked at again.
    static var descriptorRetry: Duration { .seconds(1) }

    /// The retry is due: every path still waiting for descriptors is looked at again (and waits on if none is free).
    func retryAwaitingDescriptors(now: Duration) throws(SinkError) {
        guard let due = descriptorRetryAt, now >= due else { return }
        descriptorRetryAt = nil
        guard state != .disabled else { return awaitingDescriptors = [] }  // the wake-up looks at every path
        let waiting = awaitingDescriptors.sorted()
        awaitingDescriptors = []
        for path in waiting { try reconcilePath(path) }
        // A rotated copy waited under the name it had, which a rotation may have moved on meanwhile (its arrival lost
        // to an overflow, or told while no descriptor was free): what it holds is found by a look at every chain.
        if waiting.contains(where: { !isLive($0) }) { try catchUpUnseenRotations() }
    }

    /// Keeps open descriptors under `limit` (`tail.maxOpenFiles` as it fits), releasing what `DescriptorBudget` picks.
    func makeRoom(limit: Int? = nil) throws(SinkError) {
        let limit = limit ?? settings.maxOpenFiles
        let open = tracked.open.map {
            DescriptorBudget.OpenFile(key: $0.identity, isFollowed: $0.lifecycle.isFollowed, lastGrowth: $0.lifecycle.lastGrowth)
        }
        for release in DescriptorBudget.releases(open, limit: limit) {
            switch release {
            case .retire(let identity):
                guard let file = tracked[identity] else { continue }
                try read(file)
                try retire(file, reason: "retired to stay under \(limit) open files; read again if it grows")
            case .park(let identity):
                guard let file = tracked[identity] else { continue }
                tracked.park(file)  // at its resume offset (see `TrackedFiles.park`)
                file.close()
                events.report(.closed(path: file.followPath, reason: "parked to stay under \(limit) open files"))
            }
        }
    }
}
