/// What `run` keeps per content (by fingerprint) besides its offset, for a restart after a power loss: the
/// trail of its earlier positions (`AnchorTrail`), saved with its checkpoints (`stamp`), and — for a content found
/// cut back — the epoch of its record ids, saved beside them (`SavedPositions.epochs`). A resume that finds a
/// content cut back reads on from an anchor in its next epoch (`readOn`). Pure: time is passed in.
public struct ContentMarks: Sendable {
    private var trails: [Fingerprint: AnchorTrail] = [:]
    private var epochs: [Fingerprint: Int] = [:]
    /// Per content in a new epoch: the checkpoint offset found cut back that started it, and where reading went
    /// on (a resume that looks at the chain again decides once).
    private var cuts: [Fingerprint: (behind: Int64, from: Checkpoint.Anchor?)] = [:]

    public init() {}

    /// What a start finds saved: each content's trail (its newest checkpoint's) and epoch.
    public mutating func load(_ saved: SavedPositions, now: Duration) {
        epochs = saved.epochs
        for checkpoint in saved.checkpoints.sorted(by: { $0.offset < $1.offset }) {
            trails[checkpoint.fingerprint] = AnchorTrail(checkpoint.anchors, now: now)
        }
    }

    /// The epoch the record ids of `fingerprint`'s content carry (0: never cut back).
    public func epoch(of fingerprint: Fingerprint) -> Int { epochs[fingerprint] ?? 0 }

    /// `checkpoint` about to be saved: its position noted on its content's trail, and the trail's anchors
    /// written into it (those before its own offset).
    public mutating func stamp(_ checkpoint: inout Checkpoint, now: Duration) {
        var trail = trails[checkpoint.fingerprint] ?? AnchorTrail(now: now)
        trail.note(Checkpoint.Anchor(offset: checkpoint.offset, tailHash: checkpoint.tailHash), at: now)
        trails[checkpoint.fingerprint] = trail
        checkpoint.anchors = trail.anchors.filter { $0.offset < checkpoint.offset }
    }

    /// The epochs to save beside the checkpoints: those of the contents in `kept`, which are all the marks keep
    /// from now on (no checkpoint or seen list names the others any more).
    public mutating func saved(keeping kept: Set<Fingerprint>) -> [Fingerprint: Int] {
        trails = trails.filter { kept.contains($0.key) }
        epochs = epochs.filter { kept.contains($0.key) }
        cuts = cuts.filter { kept.contains($0.key) }
        return epochs
    }

    /// The earlier positions of `fingerprint`'s content before `offset`, newest first.
    public func anchors(of fingerprint: Fingerprint, before offset: Int64) -> [Checkpoint.Anchor] {
        trails[fingerprint]?.anchors.filter { $0.offset < offset } ?? []
    }

    /// Whether a file holding `saved`'s content (by its first line) was cut back behind the checkpoint and written
    /// on: a power loss kept what the disk had, the app wrote new lines where the lost ones were, and perhaps a
    /// rotation copied or compressed it before the restart looked. `hash` gives the tail hash of the file's bytes
    /// before an offset (nil beyond its `size`).
    /// - Holding the offset, the bytes before it must be the ones read.
    /// - Shorter than the offset, the checkpointed file itself (`sameFile`) was cut (a file only shrinks by a
    ///   truncate). A copy may hold less than was read without any cut (copytruncate copied it, the app wrote on
    ///   into the live file, which was read, then truncated): it was cut when the bytes before one of the content's
    ///   earlier positions it holds are not the ones read. (When none tells, it is taken for such a copy: the
    ///   lines an app wrote after a cut into a file copied so are not read. Assuming a cut instead read every such
    ///   copy again under new ids after a reboot: in the simulator's seeds 1…4000, 40 such against 2 losses.)
    /// A position whose bytes were not hashed (`Checkpoint.unknownTail`) tells nothing. A copy of a file that itself
    /// still holds the bytes read (`originalHolds`: found in the chain, same inode) was not cut: a power loss cuts
    /// the file, and a copy is never longer than the file was.
    public func wasCutBack(_ saved: Checkpoint, size: Int64, sameFile: Bool, originalHolds: Bool = false,
                           hash: (Int64) -> UInt64?) -> Bool {
        if saved.tailHash == Checkpoint.unknownTail || (!sameFile && originalHolds) { return false }
        if size >= saved.offset { return hash(saved.offset) != saved.tailHash }
        if sameFile { return true }
        return anchors(of: saved.fingerprint, before: saved.offset).contains {
            $0.tailHash != Checkpoint.unknownTail && $0.offset <= size && hash($0.offset) != $0.tailHash
        }
    }

    /// Where reading of `fingerprint`'s content goes on after a cut behind `offset` that a resume already decided
    /// (`readOn`): the same content met again under another name in the same resume (compressed between the look
    /// and the open) is read on from there too. Nil: no such cut.
    public func decidedReadOn(of fingerprint: Fingerprint, behind offset: Int64) -> Int64? {
        guard let decided = cuts[fingerprint], decided.behind == offset else { return nil }
        return decided.from?.offset ?? 0
    }

    /// A resume found `fingerprint`'s content without the bytes before its checkpoint's `offset` (a power loss
    /// cut it back and the app wrote on). Decides where reading goes on: the first of the content's anchors
    /// before `offset` that `holds` says the file still holds (nil: none, its start). What is read from there
    /// carries the next epoch's ids. Decided once per cut (a resume that looks at the chain again gets the same
    /// answer, `isNew` false), and from what was saved, so a crash before the next save decides the same again.
    public mutating func readOn(afterCutOf fingerprint: Fingerprint, behind offset: Int64, now: Duration,
                                holds: ([Checkpoint.Anchor]) -> Checkpoint.Anchor?) -> (from: Checkpoint.Anchor?, isNew: Bool) {
        if let decided = cuts[fingerprint], decided.behind == offset { return (decided.from, false) }
        let from = holds(anchors(of: fingerprint, before: offset))
        trails[fingerprint] = AnchorTrail(from.map { [$0] } ?? [], now: now)
        epochs[fingerprint] = epoch(of: fingerprint) + 1
        cuts[fingerprint] = (offset, from)
        return (from, true)
    }
}
