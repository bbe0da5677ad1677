import Glibc
import SpytailCore

/// Start-up: watches, resumes every checkpointed file, and follows every live file not seen before, reading its
/// history first on a first start.
extension Tailer {
    /// Watches, resumes every checkpointed file (also those rotated and compressed meanwhile), then follows
    /// every live file not seen before (from `startAt`).
    func startUp() throws(SinkError) {
        let (saved, problem) = checkpointer.load()
        if let problem { report(.checkpointsUnusable(problem)) }
        let checkpoints = saved.checkpoints
        seen.restore(saved.seen)
        // Ends kept by an earlier start that could not open them, for the files still read from their end.
        endsAtStart = saved.endsAtStart.filter { configuration.source(ofLive: $0.key)?.startAt == .end }
        marks.load(saved, now: uptime)
        rewatch()
        guard state != .disabled else {
            // Parked as they are, all of a path's: enabling resumes them as this start would have.
            for checkpoint in checkpoints { tracked.park(checkpoint) }
            return
        }
        for (path, group) in Dictionary(grouping: checkpoints, by: \.path).sorted(by: { $0.key < $1.key }) {
            try resumeWhenDescriptorsAllow(path, from: group)
        }
        let listings = FolderListings()  // the skipped histories' folders, listed once for all their live files
        for source in configuration.sources {
            for path in discovery.liveFiles(for: source) where tracked.identity(followedAt: path) == nil && tracked.parked(at: path) == nil {
                guard Syscall.stat(path) != nil else { continue }
                let known = checkpoints.contains { $0.path == path }
                if !known && saved.seen[path] != nil {
                    // Followed at the stop with nothing to checkpoint yet (empty): its chain is not new, but
                    // what arrived in it since is.
                    try resumeWhenDescriptorsAllow(path, from: [])
                    continue
                }
                // No descriptor free: looked at again once one is (`reconcilePath` reads its unseen copies first; a
                // `startAt: end` file is followed from where it ends now).
                guard try haveDescriptorsForOpening(path) else {
                    if !known && source.startAt == .end { keepEndAtStart(of: path) }
                    continue
                }
                if !known && endsAtStart[path] != nil {
                    // An earlier start met it and could not open it: followed from where it ended then, its copies
                    // rotated since read on from there (`reconcilePath`), as that start would have once one was free.
                    try reconcilePath(path)
                    continue
                }
                if !known && (source.startAt == .end || !source.rotated) {
                    seen.noteChain(of: path)
                    guard rememberSkipped(discovery.rotatedChain(of: path, source: source, listings: listings), under: path) else {
                        // A copy's look found no descriptor (taken since the gauge said yes): as when the gauge says no.
                        seen.unnoteChain(of: path)
                        if source.startAt == .end { keepEndAtStart(of: path) }
                        awaitDescriptor(for: path)
                        continue
                    }
                    if source.startAt == .end { try followAtEnd(path) } else { try reconcilePath(path) }
                } else {
                    let history = known ? .none : try readHistory(of: path, source: source)
                    if case .cutShort = history {
                        // A member could not be opened for want of a descriptor (taken since the gauge said yes): the
                        // chain stays un-noted, so once one is free the path reads what is left of it first, oldest
                        // first (`catchUpCopiesOfNewFile`: what was read now counts as seen), then the live file. What
                        // was read is saved with the checkpoints: a restart before then reads on, not again.
                        seen.noteHistoryCutShort(of: path)
                        awaitDescriptor(for: path)
                        continue
                    }
                    seen.noteChain(of: path)
                    if case .read(let fingerprint, let end) = history, look(atFile: path) == .content(fingerprint) {
                        // copytruncate between its copy and its truncate: the live file starts with what was read.
                        try follow(path, from: end, fingerprint: fingerprint)
                        continue
                    }
                    try reconcilePath(path)
                }
            }
        }
        // Once more per folder: names that match but cannot be read (a directory, a symlink loop) are
        // reported now rather than silently skipped.
        for directory in watches.wanted.sorted() { try reconcileDirectory(directory) }
        forgetGoneFolders()
        try commit(durable: true)
    }

    /// A live file never seen before, on the first start with `startAt: beginning`: its rotated chain is
    /// read oldest first (damage reported as in `scan`) before the live file is followed. The members are not
    /// checkpointed (but the newest plain one, kept as retired: `readRotated`); the live file's checkpoint
    /// then marks the whole chain as read, so a restart skips it.
    /// Returns the newest member read: its content and where reading it ended; or that reading stopped at a member
    /// no descriptor was free to open (the members before it were read).
    func readHistory(of path: String, source: SpytailConfig.Source) throws(SinkError) -> HistoryRead {
        let chain = discovery.rotatedChain(of: path, source: source)
        var newest: (member: String, fingerprint: Fingerprint, end: Int64)?
        for member in chain {
            do { _ = try FileOpener.open(member) } catch {
                if error.wantsDescriptor { return .cutShort }
                events.report(.readFailed(error))
                continue
            }
            let fingerprint: Fingerprint
            switch look(atFile: member) {
            case .content(let found): fingerprint = found
            case .nothing: continue  // empty
            case .noDescriptor: return .cutShort
            }
            events.report(.fileStarted(path: member, compressed: member.hasSuffix(".gz")))
            // The newest with content is kept once all are read (an empty copy after it says nothing).
            let end = try catchUp(member, from: 0, fingerprint: fingerprint, as: path, stillWritten: member == chain.last)
            if end == nil && awaitingDescriptors.remove(member) != nil { return .cutShort }  // the path waits instead
            newest = end.map { (member, fingerprint, $0) }
        }
        guard let newest else { return .none }
        keepAsNewest(newest.member, at: newest.end, fingerprint: newest.fingerprint, as: path)
        return .read(newest.fingerprint, end: newest.end)
    }

    /// What `readHistory` read.
    enum HistoryRead {
        /// No member with content.
        case none
        /// The newest member read, and where reading it ended.
        case read(Fingerprint, end: Int64)
        /// Stopped at a member no descriptor was free to open; the ones before it were read.
        case cutShort
    }

    /// The source `path` is a live file of; a source with the built-in names only when none is (any more).
    func source(of path: String) -> SpytailConfig.Source {
        configuration.source(ofLive: path) ?? SpytailConfig.Source(name: "", include: [])
    }

    /// Follows `path` from its end (aligned to the start of the line being written, so no half line): `startAt: end`.
    /// `endedAt`: where it ended at the start, when it is followed later (left for want of a descriptor). An open
    /// that finds no descriptor keeps where the file ends now and waits for one.
    func followAtEnd(_ path: String, endedAt mark: Int64? = nil) throws(SinkError) {
        let fd: Int32
        do throws(Errno) { fd = try openForLook(path) } catch {
            guard error.isOutOfDescriptors else { return warnOnce(path, "cannot open: \(error)") }
            keepEndAtStart(of: path)
            return awaitDescriptor(for: path)
        }
        unreadable.remove(path)
        endsAtStart[path] = nil
        defer { Syscall.close(fd) }
        guard let info = try? Syscall.fstat(fd) else { return }
        guard let (fingerprint, end) = Self.lineStart(of: fd, at: min(Int64(info.st_size), mark ?? .max)) else {
            try follow(path, from: 0, fingerprint: nil)
            return
        }
        // Rotated between this look and the open: the file now at the path is new, all of it.
        if try !follow(path, from: end, fingerprint: fingerprint) { try follow(path, from: 0, fingerprint: nil) }
    }

    /// Where `path` ends now, kept as where it ended at the start unless an earlier look (or start) kept one: the first
    /// failure says where it ended.
    func keepEndAtStart(of path: String) {
        guard endsAtStart[path] == nil, let info = Syscall.stat(path) else { return }
        endsAtStart[path] = SavedPositions.EndAtStart(identity: FileIdentity(info), size: Int64(info.st_size))
    }

    /// A `startAt: end` live file left at the start for want of a descriptor, looked at now that one is free: followed
    /// from where it ended at the start. Rotated meanwhile, the copy that holds it is read on from there first, then
    /// the copies rotated after it, whole, oldest first (the `startAt: end` look had taken them for history), and the
    /// file at the path now, created since the start, is read whole as today. False when it was not left so.
    func followFromItsEndAtStart(_ path: String, now identity: FileIdentity) throws(SinkError) -> Bool {
        guard let start = endsAtStart[path] else { return false }
        if start.identity == identity {
            try followAtEnd(path, endedAt: start.size)  // kept while its open finds no descriptor
            return true
        }
        let chain = discovery.rotatedChain(of: path, source: source(of: path))
        guard let at = chain.lastIndex(where: { Syscall.stat($0).map({ FileIdentity($0) }) == start.identity }) else {
            endsAtStart[path] = nil
            return false
        }
        let copy = chain[at]
        // Every copy made since, looked at before anything is read: one no descriptor is free for keeps the whole path
        // waiting, its end at the start kept.
        var since: [(path: String, fingerprint: Fingerprint)] = []
        for later in chain[(at + 1)...] {
            let look = look(atFile: later)
            if look == .noDescriptor {
                awaitDescriptor(for: path)
                return true
            }
            if let fingerprint = look.fingerprint { since.append((later, fingerprint)) }
        }
        let fd: Int32
        do throws(Errno) { fd = try openForLook(copy) } catch {
            guard error.isOutOfDescriptors else {
                endsAtStart[path] = nil
                return false
            }
            awaitDescriptor(for: path)  // the live file waits with it
            return true
        }
        endsAtStart[path] = nil
        let begin = Self.lineStart(of: fd, at: start.size)
        Syscall.close(fd)
        if let (fingerprint, offset) = begin {
            try readRotated(copy, from: offset, fingerprint: fingerprint, as: path, newest: copy == chain.last)
        }
        for later in since {
            events.report(.following(path: later.path, offset: 0))
            try readRotated(later.path, from: 0, fingerprint: later.fingerprint, as: path, newest: later.path == chain.last)
        }
        return false
    }

    /// Opens `path` read-only for a look at its bytes (the open-failure seam plays EMFILE here too).
    private func openForLook(_ path: String) throws(Errno) -> Int32 {
        if let errno = openFailure?() { throw errno }
        return try Syscall.open(path, O_RDONLY)
    }

    /// The first line's fingerprint of the file open at `fd`, and the start of the line being written at `size` (not
    /// before the end of that first line); nil when the file is empty.
    static func lineStart(of fd: Int32, at size: Int64) -> (fingerprint: Fingerprint, offset: Int64)? {
        guard let (fingerprint, covered) = Fingerprinter.ofDescriptor(fd, complete: false) else { return nil }
        guard size > 0 else { return (fingerprint, 0) }  // empty then: all of it came since
        var tail = [UInt8](repeating: 0, count: 65536)
        let start = max(0, size - Int64(tail.count))
        let count = min(Int(size - start), tail.count)
        let m = (try? tail.withUnsafeMutableBytes { (raw) throws(Errno) in
            try Syscall.pread(fd, UnsafeMutableRawBufferPointer(rebasing: raw[..<count]), at: start)
        }) ?? 0
        let lastNewline = m > 0 ? tail[..<m].lastIndex(of: 0x0A) : nil
        let offset = lastNewline.map { start + Int64($0) + 1 } ?? size
        return (fingerprint, max(offset, Int64(covered)))
    }
}
