import SpytailCore
import Testing

/// What `run` keeps so that a restart after a power loss reads on from a position the cut-back file still holds,
/// under ids no record went out with (`AnchorTrail`, `ContentMarks`, `Fingerprint.forIDs`).
struct PowerCutMarksTests {
    static func anchor(_ offset: Int64) -> Checkpoint.Anchor { Checkpoint.Anchor(offset: offset, tailHash: UInt64(offset) &* 31) }

    /// Saves every `step` seconds (offset = 100 × the second) for ten minutes: each anchor is at least its reach
    /// old and at most the gap to the reach below it (and a step) older, and the trail stays small.
    @Test(arguments: [1, 3])
    func theAnchorsReachBackByTheirReachesAtAnyTime(_ step: Int) {
        var trail = AnchorTrail(now: .zero)
        let reaches = AnchorTrail.reach.map { Int($0.components.seconds) }
        for second in stride(from: 0, through: 600, by: step) {
            trail.note(Self.anchor(Int64(second) * 100), at: .seconds(second))
            let ages = trail.anchors.map { second - Int($0.offset / 100) }
            let reached = reaches.filter { $0 <= second }
            #expect(ages.count == reached.count, "at \(second) s: ages \(ages)")
            for (k, (age, reach)) in zip(ages, reached).enumerated() {
                let below = k == 0 ? 0 : reached[k - 1]
                #expect(age >= reach && age <= 2 * reach - below + step, "at \(second) s: ages \(ages)")
            }
        }
    }

    /// A file that does not move keeps its last position as its anchor (older ones add nothing); a position noted
    /// again is not a new one.
    @Test func anIdleFileKeepsItsLastPositionAsItsAnchor() {
        var trail = AnchorTrail(now: .zero)
        trail.note(Self.anchor(10), at: .zero)
        trail.note(Self.anchor(20), at: .seconds(1))
        trail.note(Self.anchor(20), at: .seconds(4))
        #expect(trail.anchors == [Self.anchor(10)], "only 10 is 4 s old")
        for second in 5...300 { trail.note(Self.anchor(20), at: .seconds(second)) }
        #expect(trail.anchors == [Self.anchor(20)])
    }

    /// Positions another process saved count as older than every reach: the newest of them stays an anchor
    /// until newer ones are that old.
    @Test func savedAnchorsCountAsOld() {
        var trail = AnchorTrail([Self.anchor(900), Self.anchor(500)], now: .seconds(5))
        #expect(trail.anchors == [Self.anchor(900), Self.anchor(500)])
        trail.note(Self.anchor(1000), at: .seconds(6))
        #expect(trail.anchors == [Self.anchor(900)])
        trail.note(Self.anchor(1100), at: .seconds(10))
        #expect(trail.anchors == [Self.anchor(1000), Self.anchor(900)])
    }

    @Test func idsOfEpochZeroAreAsEverAndLaterEpochsDiffer() {
        let fingerprint = Fingerprint(value: 0xDEAD_BEEF)
        #expect(fingerprint.forIDs(epoch: 0) == fingerprint)
        let later = (1...50).map { fingerprint.forIDs(epoch: $0) }
        #expect(Set(later + [fingerprint]).count == 51)
        #expect(SourceFile(path: "/l/a.log", fingerprint: fingerprint, epoch: 2).idFingerprint == fingerprint.forIDs(epoch: 2))
    }

    /// A content found cut back reads on from the newest anchor before the checkpoint's offset that the file
    /// holds, in its next epoch; once per cut (a resume looking at the chain again gets the same answer); its trail
    /// restarts at that anchor, and its epoch is saved until nothing names it.
    @Test func aCutReadsOnFromTheNewestHeldAnchorInTheNextEpochOnce() {
        let fingerprint = Fingerprint(value: 7)
        var checkpoint = Checkpoint(path: "/l/a.log", identity: FileIdentity(device: 1, inode: 2), fingerprint: fingerprint, offset: 500, tailHash: 1)
        checkpoint.anchors = [Self.anchor(400), Self.anchor(300), Self.anchor(100)]
        var marks = ContentMarks()
        marks.load(SavedPositions(checkpoints: [checkpoint], epochs: [fingerprint: 1]), now: .zero)
        #expect(marks.epoch(of: fingerprint) == 1)
        var offered: [Checkpoint.Anchor] = []
        let first = marks.readOn(afterCutOf: fingerprint, behind: 500, now: .seconds(1)) { anchors in
            offered = anchors
            return anchors.first { $0.offset <= 350 }  // the file was cut back to 350 bytes
        }
        let again = marks.readOn(afterCutOf: fingerprint, behind: 500, now: .seconds(2)) { _ in Issue.record("decided again"); return nil }
        #expect(offered == [Self.anchor(400), Self.anchor(300), Self.anchor(100)])
        #expect(first.from == Self.anchor(300) && first.isNew && again.from == Self.anchor(300) && !again.isNew)
        #expect(marks.epoch(of: fingerprint) == 2)
        checkpoint.offset = 800
        marks.stamp(&checkpoint, now: .seconds(10))
        #expect(checkpoint.anchors == [Self.anchor(300)])
        let kept = marks.saved(keeping: [fingerprint]), dropped = marks.saved(keeping: [])
        #expect(kept == [fingerprint: 2] && dropped == [:])
        #expect(marks.epoch(of: fingerprint) == 0)
    }

    /// Whether a member holding a checkpointed content was cut back and written on, from the tail hashes of its
    /// bytes: the checkpoint at 900 (hash 900·31), earlier positions at 600 and 300.
    @Test func aMemberIsCutBackWhenTheBytesBeforeThePositionsItHoldsDiffer() {
        var checkpoint = Checkpoint(path: "/l/a.log", identity: FileIdentity(device: 1, inode: 9), fingerprint: Fingerprint(value: 7),
                                    offset: 900, tailHash: 900 &* 31)
        checkpoint.anchors = [Self.anchor(600), Self.anchor(300)]
        var marks = ContentMarks()
        marks.load(SavedPositions(checkpoints: [checkpoint]), now: .zero)
        let intact: (Int64) -> UInt64? = { UInt64($0) &* 31 }
        let rewrittenFrom: (Int64) -> (Int64) -> UInt64? = { cut in { $0 <= cut ? UInt64($0) &* 31 : 1 } }
        func cut(size: Int64, sameFile: Bool = false, originalHolds: Bool = false, _ hash: (Int64) -> UInt64?) -> Bool {
            marks.wasCutBack(checkpoint, size: size, sameFile: sameFile, originalHolds: originalHolds, hash: hash)
        }
        // Holding the offset: the bytes before it decide.
        #expect(!cut(size: 900, intact) && !cut(size: 5000, intact))
        #expect(cut(size: 5000, rewrittenFrom(700)) && cut(size: 5000, sameFile: true, rewrittenFrom(700)))
        // Shorter: the checkpointed file itself was cut; a copy only when a position it holds shows other bytes.
        #expect(cut(size: 800, sameFile: true, intact))
        #expect(!cut(size: 800, intact), "copytruncate's copy taken before the last lines read")
        #expect(cut(size: 800, rewrittenFrom(400)), "the bytes before 600 differ")
        #expect(!cut(size: 500, rewrittenFrom(400)), "the only position it holds (300) is intact: nothing tells")
        // A copy of a file that itself still holds the bytes read was not cut; a position never hashed tells nothing.
        #expect(!cut(size: 5000, originalHolds: true, rewrittenFrom(700)))
        var unhashed = checkpoint
        unhashed.tailHash = Checkpoint.unknownTail
        #expect(!marks.wasCutBack(unhashed, size: 5000, sameFile: false, hash: rewrittenFrom(700)))
        #expect(!marks.wasCutBack(unhashed, size: 100, sameFile: true, hash: intact))
    }
}
