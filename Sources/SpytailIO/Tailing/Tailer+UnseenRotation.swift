import SpytailCore

/// Content rotated away before it could be opened (created, written and rotated between two looks, as a
/// logger rotating many times a second does): found when it arrives as a rotated copy of a live file.
extension Tailer {
    /// `path` was closed after writing or moved in. If it is a rotated copy of a live file, every copy up to it
    /// that holds content never seen under that live path in this run, newer than the newest copy that
    /// does, is read whole now (as the live path), oldest first: a loop that looks less often than the logger
    /// rotates finds several such copies at once.
    ///
    /// `arrived`: `path` was just told to have arrived, so without any seen copy it still counts as content
    /// that went by unseen when it is the newest copy; without that news (a bulk look) a chain with no seen
    /// copy is history and is left alone.
    func catchUpUnseenRotation(_ path: String, arrived: Bool = true) throws(SinkError) {
        guard let (live, source) = copyOwners.liveFile(ofCopy: path) else { return }
        // No descriptor free to look at the copies: a look that cannot open one takes it for empty and passes it over
        // (or notes a new live file's chain without it). The copy is looked at again, as at its arrival, once one is.
        guard try haveDescriptorsForOpening(path) else { return }
        // A live path not there at the start (a container restarted into `1.log`) whose copy arrives before the
        // live file was looked at: all its copies were written since, as when the live file is followed first.
        if !seen.chainsNoted.contains(live), Syscall.stat(live) != nil {
            try catchUpCopiesOfNewFile(live)
            return
        }
        let chain = discovery.rotatedChain(of: live, source: source)
        guard let index = chain.lastIndex(of: path) else { return }
        try catchUpLonger(path, under: live)
        try catchUpUnseen(chain, through: index, under: live, newestAlone: arrived)
    }

    /// A copy of content that was retired part-way and then went from view (gzipped after it grew): what it
    /// holds past where reading stopped is read now. Not content open or parked under the live path: that is read
    /// on from its own position (a parked one when it is resumed), and reading it here too sent its lines twice.
    private func catchUpLonger(_ copy: String, under live: String, fingerprint: Fingerprint? = nil) throws(SinkError) {
        guard state != .disabled, !pipeline.isStalled else { return }
        let look = fingerprint.map(FileLook.content) ?? self.look(atFile: copy)
        if look == .noDescriptor { return awaitDescriptor(for: copy) }  // looked at again, as at its arrival, once one is free
        guard let fingerprint = look.fingerprint,
              !tracked.openContents(under: live).contains(fingerprint),
              tracked.parked(at: live)?.contains(where: { $0.fingerprint == fingerprint }) != true else { return }
        if let old = tracked.retired(holding: fingerprint, under: live) {
            // Still where it was retired: its growth is read there. Gone (renamed, gzipped): this copy holds it.
            guard !old.isWhereItWasRetired else { return }
            letGo(old)
        }
        // Only a copy longer than that is opened (a gzip one says so in its trailer; inflating it would tell
        // nothing). Reading it moves the mark (`SeenContents.read`).
        guard let offset = seen.readOffset(of: fingerprint, under: live), FileOpener.contentSize(copy)?.isPast(offset) == true else { return }
        try catchUp(copy, from: offset, fingerprint: fingerprint, as: live)
    }

    /// A live path followed for the first time in this run, after start-up (a new container's log, a restarted
    /// one's `1.log`): copies of it already there were rotated away before this look, so they hold content
    /// written since (unless seen under the path before): read them first, oldest first; and every copy that
    /// arrives later counts as written since (the chain is noted). With `startAt: end`, only noted. False when a
    /// copy could not be looked at for want of a descriptor: nothing was read or noted, and the live file waits too
    /// (read before its copies, its lines would go out before theirs).
    @discardableResult
    func catchUpCopiesOfNewFile(_ path: String) throws(SinkError) -> Bool {
        guard !seen.chainsNoted.contains(path) else { return true }
        let source = source(of: path)
        seen.noteChain(of: path)
        let chain = discovery.rotatedChain(of: path, source: source)
        guard source.rotated, source.startAt == .beginning else {
            guard rememberSkipped(chain, under: path) else {
                seen.unnoteChain(of: path)
                return false
            }
            return true
        }
        guard !chain.isEmpty else { return true }
        // Not noted either (noted, the chain would count as read at a restart): the next look, once a descriptor is
        // free, reads it as this one would have.
        guard try catchUpUnseen(chain, through: chain.count - 1, under: path, newestAlone: false) else {
            seen.unnoteChain(of: path)
            return false
        }
        return true
    }

    /// Copies left unread on purpose (`startAt: end`, `rotated: false`) are known: one renamed later is not
    /// new content, nor is it at a restart. False when a copy could not be looked at for want of a descriptor (it
    /// would pass for empty, and be read as new content once renamed): the copy waits for one, and the caller
    /// leaves the chain un-noted so the next look remembers them all.
    func rememberSkipped(_ copies: [String], under live: String) -> Bool {
        for copy in copies {
            let look = look(atFile: copy)
            if look == .noDescriptor {
                awaitDescriptor(for: copy)
                return false
            }
            seen.remember(look.fingerprint, under: live)
        }
        return true
    }

    /// Reads the copies `unseenCopies` names, oldest first, as the live path. False when a copy could not be looked
    /// at for want of a descriptor: nothing was read (the copy waits for one).
    @discardableResult
    private func catchUpUnseen(_ chain: [String], through index: Int, under live: String, newestAlone: Bool) throws(SinkError) -> Bool {
        guard state != .disabled, !pipeline.isStalled else { return true }
        guard let copies = unseenCopies(chain, through: index, under: live, newestAlone: newestAlone) else { return false }
        // The seen copy the walk stopped at may hold more than was read (it grew before it was gzipped).
        if let oldest = copies.first, let at = chain.firstIndex(of: oldest.path), at > 0 { try catchUpLonger(chain[at - 1], under: live) }
        for copy in copies {
            events.report(.following(path: copy.path, offset: 0))
            // Seen once read (`catchUp` says so): a copy renamed or gzipped before it could be opened is read when
            // it arrives under its new name, not passed over as seen.
            try readRotated(copy.path, from: 0, fingerprint: copy.fingerprint, as: live, newest: copy.path == chain.last)
        }
        return true
    }

    /// Without arrival events (inotify's queue overflowed, arrivals came while reading was paused or
    /// disabled, a reload, the 2 s poll without inotify), the rotated copies in the chains' folders are
    /// looked at: one listing a folder; a chain is walked when its newest copy with content holds content not
    /// seen, and only back to a copy whose content was seen — or, when all that was seen under its live path
    /// is known (`SeenContents.isWhole`), when any copy does (one empty when looked at, written later and
    /// rotated along); such a chain's copies let go part-way are also read on if they grew (gzipped since).
    /// Each copy's first line is read again only when it changed (stat), so the steady state costs a stat a
    /// copy. A newest copy still being written is read to where it is: a gzip one then ends
    /// early and says so as a `damaged` gap.
    func catchUpUnseenRotations() throws(SinkError) {
        // Nothing can be read behind a full output: the look waits for the end of the pause (which looks again).
        guard !pipeline.isStalled else { return }
        // Only chains with a seen copy count here, so only the folders of live paths seen in this run.
        let parents = Set((Array(seen.paths) + Array(seen.chainsNoted) + tracked.followedPaths + Array(tracked.parkedPaths))
            .map(Paths.parent))
        let owners = copyOwners
        var looked: [String: (stamp: FileStamp, fingerprint: Fingerprint?)] = [:]
        for (live, chain) in owners.chains(in: owners.chainFolders(near: parents)) {
            let whole = seen.isWhole(under: live)
            // The newest copy with content (an empty one, just created by a rotation, says nothing yet).
            var newest: Int?
            for (index, copy) in chain.enumerated().reversed() {
                guard let stamp = FileStamp(copy) else { continue }
                // A poll without inotify comes back every 2 s: an unchanged copy is not opened (nor inflated) again.
                let unchanged = lookedAtCopies[copy].flatMap { $0.stamp == stamp ? $0 : nil }
                let look = unchanged.map { $0.fingerprint.map(FileLook.content) ?? .nothing } ?? look(atFile: copy)
                // Not looked at for want of a descriptor: not remembered as looked at (it would pass for empty until
                // it changed); the copy is looked at again, as at its arrival, once one is free.
                if look == .noDescriptor {
                    awaitDescriptor(for: copy)
                    break
                }
                looked[copy] = (stamp, look.fingerprint)
                guard let fingerprint = look.fingerprint else { continue }
                // One let go part-way may have grown before it was gzipped: the newest at each look, others when changed.
                let isNewest = newest == nil
                if isNewest { newest = index }
                if isNewest || unchanged == nil { try catchUpLonger(copy, under: live, fingerprint: fingerprint) }
                if !hasSeen(fingerprint, under: live) {
                    try catchUpUnseen(chain, through: newest!, under: live, newestAlone: false)
                    break
                }
                if !whole { break }
            }
        }
        // A look cut short by an output filling up read nothing past that point: nothing of it is remembered as
        // looked at, or a copy that grew meanwhile would be passed over as unchanged after the pause (the
        // simulator's second output found that: a stale writer's lines in a copy rotated on during the pause).
        lookedAtCopies = pipeline.isStalled ? [:] : looked
    }

    /// The copies of `chain` up to `index` whose content went by unseen under `live` (`UnseenCopies`); nil when a
    /// copy could not be looked at for want of a descriptor (it would pass for empty): that copy is looked at again,
    /// as at its arrival, once one is free.
    func unseenCopies(_ chain: [String], through index: Int, under live: String, newestAlone: Bool) -> [UnseenCopies.Copy]? {
        var unlooked: String?
        let copies = UnseenCopies.pick(chain, through: index, newestAlone: newestAlone, chainNoted: seen.chainsNoted.contains(live),
                                       seenWhole: seen.isWhole(under: live), fingerprint: { [unowned self] copy in
            let look = look(atFile: copy)
            if look == .noDescriptor, unlooked == nil { unlooked = copy }
            return look.fingerprint
        }, seen: { hasSeen($0, under: live) })
        if let unlooked {
            awaitDescriptor(for: unlooked)
            return nil
        }
        return copies
    }

    /// Who owns a rotated copy, as the config and the files followed now say.
    var copyOwners: CopyOwners {
        CopyOwners(discovery: discovery, sources: configuration.sources, followed: { tracked.followedPaths })
    }

    /// Whether content with `fingerprint` was seen under `live`: remembered, open now, retired, or parked (its
    /// position kept under the live path: the resume reads it on from there, wherever it was rotated to). A file
    /// opened empty has no fingerprint until it reads its first line, but its content is the open file's to read:
    /// asked of the file itself (a rotated copy of it arriving before it was read would otherwise be read twice).
    func hasSeen(_ fingerprint: Fingerprint, under live: String) -> Bool {
        if seen.contains(fingerprint, under: live) { return true }
        return tracked.open.contains { file in
            guard file.followPath == live else { return false }
            return (file.source?.fingerprint ?? Fingerprinter.ofDescriptor(file.descriptor, complete: true)?.fingerprint) == fingerprint
        } || tracked.retired(holding: fingerprint, under: live) != nil
            || tracked.parked(at: live)?.contains { $0.fingerprint == fingerprint } == true
    }
}
