import Glibc
import SpytailCore

/// Finding checkpointed content again by its fingerprint in the rotated chain (live folder and olddir), after a
/// restart, when enabled again, or when a parked file gets an event.
extension Tailer {
    /// Resumes the content saved in `checkpoints` (all saved under the live `path`): finds each by its
    /// fingerprint in the path's rotated chain, reads it from its offset, reads every newer member whole,
    /// and follows the live file.
    func resume(_ path: String, from checkpoints: [Checkpoint]) throws(SinkError) {
        // A rotation that runs between looking at a name and opening it moves the content: look again, for
        // as long as each look reads more of the chain (a slow reader behind a fast rotator catches up
        // member by member); only three looks in a row that read nothing give up.
        var resume = ChainResume(checkpoints, seen: knownContents(resuming: path), seenWhole: seen.isWhole(under: path))
        var fruitless = 0
        while fruitless < 3 {
            let before = resume.delivered.count
            if try resumeOnce(path, &resume) { return }
            fruitless = resume.delivered.count > before ? 0 : fruitless + 1
        }
        report(.chainKeptChanging(path: path))
        try follow(path, from: 0, fingerprint: nil)
    }

    /// What was seen under `path`, for its resume. A content open under it (a rotated copy being drained), or retired
    /// under it and still where it was retired, is read on from its own position (`reconcileRetired` if it grows): its
    /// mark is not given, or the resume read its growth too (a parked live file resumed once a descriptor was free,
    /// its rotated copy grown meanwhile: simulator seed 27618; whether the copy's drain came first depends on the
    /// order of the waiting paths).
    private func knownContents(resuming path: String) -> [SavedPositions.Seen]? {
        let retiredInPlace = tracked.retiredFiles.filter { $0.checkpoint.path == path && $0.isWhereItWasRetired }.map(\.checkpoint.fingerprint)
        let readElsewhere = tracked.openContents(under: path).union(retiredInPlace)
        guard !readElsewhere.isEmpty else { return seen.knownContents(under: path) }
        return seen.knownContents(under: path)?.map { readElsewhere.contains($0.fingerprint) ? SavedPositions.Seen($0.fingerprint) : $0 }
    }

    /// `resume(_:from:)` once descriptors are free for it; until then the checkpoints stay parked at `path`, looked at
    /// again every `descriptorRetry` (`haveDescriptorsForOpening`). A resume whose opens fail would take the content
    /// it could not open for read: a start, or a wake-up, with the descriptors all taken lost it.
    func resumeWhenDescriptorsAllow(_ path: String, from checkpoints: [Checkpoint]) throws(SinkError) {
        guard try haveDescriptorsForOpening(path) else { return tracked.park(checkpoints, at: path) }
        try resume(path, from: checkpoints)
    }

    /// One look at the chain, carried out as `ChainResume` plans it; false when a member no longer held its
    /// content when opened (nothing was emitted from it).
    private func resumeOnce(_ path: String, _ resume: inout ChainResume) throws(SinkError) -> Bool {
        guard let (chain, members) = lookAtChain(of: path) else { return waitForDescriptor(path, resume) }
        // Content that seems gone may have been renamed between the listing and the reads: only the same
        // picture twice calls it vanished.
        if resume.misses(members) {
            guard let again = lookAtChain(of: path) else { return waitForDescriptor(path, resume) }
            if again != (chain, members) { return false }
        }
        for member in members.reversed() { seen.remember(member.fingerprint, under: path) }
        seen.noteChain(of: path)
        let plan = resume.plan(members, size: { FileOpener.contentSize(chain[$0]) })
        onChainLooked?(path)
        for lost in plan.vanished {
            try reportGap(GapReport(file: sourceFile(path, fingerprint: lost.fingerprint), offset: lost.offset, bytes: nil,
                                    reason: .vanished))
        }
        if plan.startsFresh {
            if Syscall.stat(path) != nil { try follow(path, from: 0, fingerprint: nil) }
            return true
        }
        for step in plan.steps {
            switch step {
            case .follow(let index, let offset, let saved):
                // Same first line, but the bytes before the offset differ: cut back (a power loss) and written
                // on, or rewritten in place. Read on from the last position it still holds, in a new epoch.
                if let saved {
                    switch Self.tail(of: path, against: saved) {
                    case .matches: break
                    case .moved: return false  // rotated since the look: the content is elsewhere now
                    case .rewritten:
                        guard try resumeCutBack(path, saved) else { return false }
                        continue
                    }
                }
                guard try follow(path, from: offset, fingerprint: members[index].fingerprint) else { return false }
            case .drain(let index, let offset, let fingerprint):
                // The checkpointed file renamed since, or a copy of it (copytruncate), cut back behind the offset by
                // a power loss and written on before the rotation: read on as the live file would be.
                if let saved = resume.saved(fingerprint, at: offset), let from = readOnIfCutBack(chain[index], saved, chain: chain) {
                    guard try drain(chain[index], from: from, fingerprint: fingerprint, as: path) else { return false }
                    resume.read(fingerprint)
                    continue
                }
                // A copy shorter than the offset holds less than was read from its content elsewhere (the live
                // file, past copytruncate's copy): nothing of it is read again.
                let size = Syscall.stat(chain[index]).map { Int64($0.st_size) } ?? offset
                let from = marks.decidedReadOn(of: fingerprint, behind: offset) ?? min(offset, size)
                guard try drain(chain[index], from: from, fingerprint: fingerprint, as: path) else { return false }
                resume.read(fingerprint)
            case .catchUp(let index, let saved):
                let fingerprint = members[index].fingerprint
                // The content found cut back in this resume, compressed since the look: read on as decided; else a
                // checkpointed content compressed (or copied) after a power loss cut it back and the app wrote on.
                var offset = fingerprint.flatMap { marks.decidedReadOn(of: $0, behind: saved) } ?? saved
                if offset == saved, saved > 0, let fingerprint, let checkpoint = resume.saved(fingerprint, at: saved),
                   let from = readOnIfCutBack(chain[index], checkpoint, chain: chain) {
                    offset = from
                }
                let newest = index == members.lastIndex { !$0.isLive }
                guard try readRotated(chain[index], from: offset, fingerprint: fingerprint, as: path, newest: newest) != nil else { return false }
                if let fingerprint { resume.read(fingerprint) }
            }
        }
        if plan.looksAtLiveFile { try reconcilePath(path) }
        return true
    }

    /// The live file `path` no longer holds the bytes before `saved`'s offset. A power loss keeps what the disk
    /// had: the file was cut back behind the offset, and the app wrote new lines where the lost ones were, at
    /// offsets, hence ids, already delivered. So it is read on from the newest earlier position it still holds
    /// (`ContentMarks`' anchors: what was read before it is not read again; nil: the start), and in the content's
    /// next epoch: its records take ids none went out with. Those between that position and the cut come again,
    /// with new ids; the report says from where. False when the file holds other content by the time it is opened
    /// (rotated since the look).
    private func resumeCutBack(_ path: String, _ saved: Checkpoint) throws(SinkError) -> Bool {
        let anchors = marks.anchors(of: saved.fingerprint, before: saved.offset)
        let from = readOnAfterCut(path, saved, tails: MemberTails(path, fingerprint: saved.fingerprint, before: anchors.map(\.offset)))
        return try follow(path, from: from, fingerprint: from > 0 ? saved.fingerprint : nil)
    }

    /// Where to read `file` (the content `saved` names) on from, now that it no longer holds the bytes before the
    /// saved offset: from the first anchor it still holds (by `tails`, its bytes' hashes at the anchors; nil: none,
    /// its start), decided once per cut (`ContentMarks.readOn`), said once.
    private func readOnAfterCut(_ file: String, _ saved: Checkpoint, tails: MemberTails?) -> Int64 {
        let (anchor, isNew) = marks.readOn(afterCutOf: saved.fingerprint, behind: saved.offset, now: uptime) { anchors in
            anchors.first { tails?.hash(before: $0.offset) == $0.tailHash }
        }
        if isNew { report(.rewrittenInPlace(path: file, offset: saved.offset, readFrom: anchor?.offset ?? 0)) }
        return anchor?.offset ?? 0
    }

    /// Where to read a rotated `member` holding `saved`'s content on from when it was cut back behind the checkpoint
    /// and written on (`ContentMarks.wasCutBack`, from its bytes' tail hashes: pread, or a gzip one decompressed up
    /// to the offset); nil when it was not (or it holds other content now: the read that follows finds out).
    private func readOnIfCutBack(_ member: String, _ saved: Checkpoint, chain: [String]) -> Int64? {
        if let decided = marks.decidedReadOn(of: saved.fingerprint, behind: saved.offset) { return decided }
        let anchors = marks.anchors(of: saved.fingerprint, before: saved.offset)
        guard let tails = MemberTails(member, fingerprint: saved.fingerprint, before: [saved.offset] + anchors.map(\.offset)) else { return nil }
        let identities = chain.map { Syscall.stat($0).map(FileIdentity.init) }
        let sameFile = identities[chain.firstIndex(of: member) ?? 0] == saved.identity
        let original = zip(chain, identities).first { $0.1 == saved.identity }?.0
        let originalHolds = original.map { $0 != member && Self.tail(of: $0, against: saved) == .matches } ?? false
        guard marks.wasCutBack(saved, size: tails.size, sameFile: sameFile, originalHolds: originalHolds, hash: tails.hash) else { return nil }
        return readOnAfterCut(member, saved, tails: tails)
    }

    /// The rotated chain of `path` (then the live file, if there) with each member's content; nil when a member
    /// could not be looked at for want of a descriptor (its content unknown, not gone).
    private func lookAtChain(of path: String) -> (chain: [String], members: [ChainResume.Member])? {
        let chain = discovery.rotatedCopies(of: path, source: source(of: path)) + (Syscall.stat(path) != nil ? [path] : [])
        var members: [ChainResume.Member] = []
        for member in chain {
            let look = look(atFile: member)
            if look == .noDescriptor { return nil }
            members.append(ChainResume.Member(fingerprint: look.fingerprint, isLive: member == path))
        }
        return (chain, members)
    }

    /// The descriptors the gauge saw free were taken before the resume could look at the whole chain: what it has
    /// not read yet stays parked at `path`, resumed once one is free (a look that took the member it could not open
    /// for gone reported its content vanished and lost it). True: this resume is over.
    private func waitForDescriptor(_ path: String, _ resume: ChainResume) -> Bool {
        // Parked even with none left: the resume itself waits (a live file followed empty at the last stop has its
        // rotated copies read when it is resumed, not taken for new).
        tracked.park(resume.checkpoints.filter { !resume.delivered.contains($0.fingerprint) }, at: path)
        awaitDescriptor(for: path)
        return true
    }

    enum TailCheck { case matches, rewritten, moved }

    /// Whether the plain file at `path` still holds the checkpoint's bytes before its offset (same hash), was
    /// rewritten in place (same first line, other bytes), or is another file now (a rotation since the look).
    static func tail(of path: String, against checkpoint: Checkpoint) -> TailCheck {
        guard let tails = MemberTails(path, fingerprint: checkpoint.fingerprint, before: [checkpoint.offset]) else { return .moved }
        guard checkpoint.tailHash != Checkpoint.unknownTail else { return .matches }  // never hashed: nothing to check
        return tails.hash(before: checkpoint.offset) == checkpoint.tailHash ? .matches : .rewritten
    }
}
