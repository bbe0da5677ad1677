import Testing
import SpytailCore

/// How the content saved under a live path is found again in its rotated chain: every case the restart
/// tests cover end to end, planned here without files.
struct ChainResumeTests {
    static let a = Fingerprint(value: 0xA), b = Fingerprint(value: 0xB), c = Fingerprint(value: 0xC), d = Fingerprint(value: 0xD)

    static func saved(_ fingerprint: Fingerprint, at offset: Int64, drained: Bool = false) -> Checkpoint {
        var checkpoint = Checkpoint(path: "/l/app.log", identity: FileIdentity(device: 1, inode: fingerprint.value),
                                    fingerprint: fingerprint, offset: offset, tailHash: 0)
        checkpoint.drained = drained
        return checkpoint
    }

    static func copy(_ fingerprint: Fingerprint?) -> ChainResume.Member { .init(fingerprint: fingerprint, isLive: false) }
    static func live(_ fingerprint: Fingerprint?) -> ChainResume.Member { .init(fingerprint: fingerprint, isLive: true) }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let saved: [Checkpoint]
        let members: [ChainResume.Member]
        /// Which members are plain files (the others gzip).
        var plain: Set<Int> = []
        let plan: ChainResume.Plan
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "nothing rotated: the live file from its offset", saved: [saved(a, at: 100)], members: [live(a)],
             plan: .init(steps: [.follow(member: 0, offset: 100, saved: saved(a, at: 100))])),
        Case(name: "live file at offset 0: no tail to check", saved: [saved(a, at: 0)], members: [live(a)],
             plan: .init(steps: [.follow(member: 0, offset: 0, saved: nil)])),
        Case(name: "renamed once, plain copy: drained from the offset, then the new live file", saved: [saved(a, at: 100)],
             members: [copy(a), live(b)], plain: [0],
             plan: .init(steps: [.drain(member: 0, offset: 100, fingerprint: a), .follow(member: 1, offset: 0, saved: nil)])),
        Case(name: "renamed and compressed: caught up from the offset", saved: [saved(a, at: 100)],
             members: [copy(a), live(b)],
             plan: .init(steps: [.catchUp(member: 0, offset: 100), .follow(member: 1, offset: 0, saved: nil)])),
        Case(name: "two rotations while stopped: the newer copy whole", saved: [saved(a, at: 100)],
             members: [copy(a), copy(b), live(c)], plain: [1],
             plan: .init(steps: [.catchUp(member: 0, offset: 100), .catchUp(member: 1, offset: 0), .follow(member: 2, offset: 0, saved: nil)])),
        Case(name: "older history before the checkpointed member is not read", saved: [saved(b, at: 5)],
             members: [copy(a), copy(b), live(c)],
             plan: .init(steps: [.catchUp(member: 1, offset: 5), .follow(member: 2, offset: 0, saved: nil)])),
        Case(name: "both forms of one rotation: its content read once", saved: [saved(a, at: 100)],
             members: [copy(a), copy(a), live(b)], plain: [0],
             plan: .init(steps: [.drain(member: 0, offset: 100, fingerprint: a), .follow(member: 2, offset: 0, saved: nil)])),
        Case(name: "the checkpointed content is gone: vanished, the live file from its start", saved: [saved(a, at: 100)],
             members: [copy(b), live(c)],
             plan: .init(vanished: [saved(a, at: 100)], startsFresh: true)),
        Case(name: "a drained file gone: nothing lost", saved: [saved(a, at: 100, drained: true)], members: [live(c)],
             plan: .init(startsFresh: true)),
        Case(name: "the live file is gone: its copy, then a look at the live path", saved: [saved(a, at: 100)],
             members: [copy(a)],
             plan: .init(steps: [.catchUp(member: 0, offset: 100)], looksAtLiveFile: true)),
        Case(name: "a member without a complete first line yet is read whole", saved: [saved(a, at: 100)],
             members: [copy(a), copy(nil), live(c)],
             plan: .init(steps: [.catchUp(member: 0, offset: 100), .catchUp(member: 1, offset: 0), .follow(member: 2, offset: 0, saved: nil)])),
        Case(name: "nothing at all", saved: [], members: [], plan: .init(startsFresh: true)),
        // A first start inside copytruncate's window: the copy read (kept at its end), the live file followed
        // from there and read further. The copy holds a part of what the live file holds: only the live file is
        // read, from the further offset, its tail checked against its own checkpoint.
        Case(name: "one content under two checkpoints: the further one", saved: [saved(a, at: 189), saved(a, at: 756)],
             members: [copy(a), live(a)], plain: [0],
             plan: .init(steps: [.follow(member: 1, offset: 756, saved: saved(a, at: 756))])),
    ]

    @Test(arguments: cases)
    func aLookIsPlanned(_ c: Case) {
        var resume = ChainResume(c.saved)
        #expect(resume.plan(c.members, size: { c.plain.contains($0) ? .plain(0) : nil }) == c.plan)
    }

    /// A copy created, written and rotated away between two looks of the last run sits before the checkpointed
    /// member: what was seen under the path tells it from history.
    @Test(arguments: [
        ([copy(a), copy(c), live(b)], [a, b], [ChainResume.Step.catchUp(member: 1, offset: 0), .follow(member: 2, offset: 40, saved: saved(b, at: 40))]),
        // the content read before it is gone (retention): what is left before the checkpointed member was never seen
        ([copy(c), live(b)], [a, b], [.catchUp(member: 0, offset: 0), .follow(member: 1, offset: 40, saved: saved(b, at: 40))]),
        // older than every seen member: history, left
        ([copy(c), copy(a), live(b)], [a, b], [.follow(member: 2, offset: 40, saved: saved(b, at: 40))]),
        // between two seen members (it went by between two looks while the one after it was read): read
        ([copy(a), copy(c), copy(d), live(b)], [a, d, b], [.catchUp(member: 1, offset: 0), .follow(member: 3, offset: 40, saved: saved(b, at: 40))]),
        // both forms of the unseen rotation: read once; a member without a first line cannot be named
        ([copy(a), copy(nil), copy(c), copy(c), live(b)], [a, b], [.catchUp(member: 2, offset: 0), .follow(member: 4, offset: 40, saved: saved(b, at: 40))]),
        // nothing else seen (the first content read under the path is the checkpointed one): the rest is new
        ([copy(a), copy(c), live(b)], [], [.catchUp(member: 0, offset: 0), .catchUp(member: 1, offset: 0), .follow(member: 2, offset: 40, saved: saved(b, at: 40))]),
        // what was seen not known (a checkpoint file of an older spytail): as before
        ([copy(a), copy(c), live(b)], nil, [.follow(member: 2, offset: 40, saved: saved(b, at: 40))]),
        ([copy(a), copy(c), live(b)], [a, b, c], [.follow(member: 2, offset: 40, saved: saved(b, at: 40))]),
    ] as [([ChainResume.Member], [Fingerprint]?, [ChainResume.Step])])
    func aCopyNeverSeenBeforeTheCheckpointedMemberIsRead(_ members: [ChainResume.Member], _ seen: [Fingerprint]?, _ steps: [ChainResume.Step]) {
        var resume = ChainResume([Self.saved(Self.b, at: 40)], seen: seen?.map { SavedPositions.Seen($0) })
        #expect(resume.plan(members, size: { _ in .plain(0) }).steps == steps)
    }

    /// Everything seen under the path since its chain was noted is known (`seenWhole`): a copy older than every
    /// seen one holds content written since (let go while empty, then written by a writer that had not reopened:
    /// the simulator's seed 1278), so it is read, not taken for history; the restart had remembered it as seen
    /// without reading it. Without `seenWhole` it stays history.
    @Test func withAllThatWasSeenKnownNoCopyIsHistory() {
        let members = [Self.copy(Self.c), Self.copy(Self.a), Self.live(Self.b)]
        var whole = ChainResume([Self.saved(Self.b, at: 40)], seen: [.init(Self.a)], seenWhole: true)
        #expect(whole.plan(members, size: { _ in .plain(0) }).steps
                == [.catchUp(member: 0, offset: 0), .follow(member: 2, offset: 40, saved: Self.saved(Self.b, at: 40))])
        var bounded = ChainResume([Self.saved(Self.b, at: 40)], seen: [.init(Self.a)])
        #expect(bounded.plan(members, size: { _ in .plain(0) }).steps == [.follow(member: 2, offset: 40, saved: Self.saved(Self.b, at: 40))])
        // Not known at all (a checkpoint file without `seen`): `seenWhole` means nothing.
        var unknown = ChainResume([Self.saved(Self.b, at: 40)], seen: nil, seenWhole: true)
        #expect(unknown.plan(members, size: { _ in .plain(0) }).steps == [.follow(member: 2, offset: 40, saved: Self.saved(Self.b, at: 40))])
    }

    /// A copy the last run read to its end and let go, after the oldest checkpointed member (a drained file kept
    /// its checkpoint while the next one was read and closed): not read again; one let go part-way, from there.
    @Test func aCopyReadBeforeAfterTheCheckpointedMemberIsNotReadAgain() {
        let d = Fingerprint(value: 0xD)
        var resume = ChainResume([Self.saved(Self.a, at: 100), Self.saved(d, at: 7)], seen: [.init(Self.b), .init(Self.c, readTo: 30)])
        let plan = resume.plan([Self.copy(Self.a), Self.copy(Self.b), Self.copy(Self.c), Self.live(d)], size: { _ in nil })
        #expect(plan.steps == [ChainResume.Step.catchUp(member: 0, offset: 100), .catchUp(member: 2, offset: 30), .follow(member: 3, offset: 7, saved: Self.saved(d, at: 7))])
    }

    /// The live file was followed but still empty at the stop (no checkpoint): its chain is not new (no history
    /// read again), but a copy that arrived unseen is read before the live file is followed from its start.
    @Test func noCheckpointButWhatWasSeenKnown() {
        var resume = ChainResume([], seen: [.init(Self.a)])
        let plan = resume.plan([Self.copy(Self.a), Self.copy(Self.b), Self.live(Self.c)], size: { _ in .plain(0) })
        #expect(plan == .init(steps: [.catchUp(member: 1, offset: 0), .follow(member: 2, offset: 0, saved: nil)]))
        // Stopped before the live file's first line was read, rotated by copytruncate while down and not yet
        // truncated: the copy holds what the live file holds; the live file is read, not both.
        var window = ChainResume([], seen: [])
        #expect(window.plan([Self.copy(Self.b), Self.live(Self.b)], size: { _ in .plain(0) }) == .init(steps: [.follow(member: 1, offset: 0, saved: nil)]))
        // The content read before, let go at 200 and grown since under a writer that had not reopened: read
        // from there, plain or gzipped after it grew (its trailer says a size other than 200).
        for grownSize in [ChainResume.Size.plain(300), .gzip(isize: 300)] {
            var grown = ChainResume([], seen: [.init(Self.a, readTo: 200)])
            #expect(grown.plan([Self.copy(Self.a), Self.live(Self.c)], size: { [grownSize, .plain(0)][$0] })
                    == .init(steps: [.catchUp(member: 0, offset: 200), .follow(member: 1, offset: 0, saved: nil)]))
        }
        // Not grown: the plain form is 200 bytes, and so is the gzip form beside it (compression under way).
        var notGrown = ChainResume([], seen: [.init(Self.a, readTo: 200)])
        #expect(notGrown.plan([Self.copy(Self.a), Self.copy(Self.a), Self.live(Self.c)], size: { [.plain(200), .gzip(isize: 200), .plain(0)][$0] })
                == .init(steps: [.follow(member: 2, offset: 0, saved: nil)]))
        var gone = ChainResume([], seen: [.init(Self.a)])
        #expect(gone.plan([Self.copy(Self.a), Self.copy(Self.b)], size: { _ in .plain(0) }) == .init(steps: [.catchUp(member: 1, offset: 0)], looksAtLiveFile: true))
        // The checkpointed content is gone (rewritten in place while disabled): what was never seen is read,
        // then the live file.
        var vanished = ChainResume([Self.saved(Self.a, at: 100)], seen: [])
        #expect(vanished.plan([Self.copy(nil), Self.copy(Self.b), Self.live(Self.c)], size: { _ in .plain(0) })
                == .init(vanished: [Self.saved(Self.a, at: 100)], steps: [.catchUp(member: 1, offset: 0), .follow(member: 2, offset: 0, saved: nil)]))
    }

    @Test func sizesAreAskedOnlyOfCheckpointedCopiesAndTheNewestSeenOneLetGoPartWay() {
        var resume = ChainResume([Self.saved(Self.b, at: 7)])
        var asked: [Int] = []
        _ = resume.plan([Self.copy(Self.a), Self.copy(Self.b), Self.copy(Self.c), Self.live(nil)], size: { asked.append($0); return .plain(0) })
        #expect(asked == [1])
        var seen = ChainResume([Self.saved(Self.c, at: 7)], seen: [.init(Self.a), .init(Self.b, readTo: 5)])
        asked = []
        _ = seen.plan([Self.copy(Self.a), Self.copy(Self.b), Self.copy(Self.c), Self.live(nil)], size: { asked.append($0); return .plain(0) })
        #expect(asked == [1, 2])
    }

    /// A rotation between the look and the open: the driver looks again; what it read is not read again,
    /// and a lost content is said once.
    @Test func laterLooksSkipWhatWasReadAndSayALossOnce() {
        let lost = Fingerprint(value: 0xD)
        var resume = ChainResume([Self.saved(Self.a, at: 100), Self.saved(lost, at: 9)])
        let first = resume.plan([Self.copy(Self.a), Self.live(Self.b)], size: { _ in nil })
        #expect(first.vanished == [Self.saved(lost, at: 9)])
        resume.read(Self.a)  // caught up; then following b failed: b was rotated meanwhile
        let second = resume.plan([Self.copy(Self.a), Self.copy(Self.b), Self.live(Self.c)], size: { _ in nil })
        #expect(second.vanished.isEmpty)
        #expect(second.steps == [.catchUp(member: 1, offset: 0), .follow(member: 2, offset: 0, saved: nil)])
        resume.read(Self.b)
        // Retention removed the checkpointed member meanwhile: reading still starts after what was read.
        let third = resume.plan([Self.copy(Self.b), Self.live(Self.c)], size: { _ in nil })
        #expect(third == .init(steps: [.follow(member: 1, offset: 0, saved: nil)]))
    }
}

/// When a look must be taken again before content is called vanished.
struct ChainResumeMissesTests {
    typealias T = ChainResumeTests

    @Test func contentInNoMemberIsMissedUnlessDrainedReadOrAlreadySaid() {
        var resume = ChainResume([T.saved(T.a, at: 100), T.saved(T.b, at: 5, drained: true)])
        // A rotation between the listing and the reads: `a` was renamed to a name the listing missed.
        #expect(resume.misses([T.copy(T.c), T.live(nil)]))
        #expect(!resume.misses([T.copy(T.a), T.live(T.c)]), "found")
        #expect(!ChainResume([T.saved(T.b, at: 5, drained: true)]).misses([T.live(T.c)]), "a drained file gone lost nothing")
        resume.read(T.a)
        #expect(!resume.misses([T.live(T.c)]), "read by an earlier look")
        var said = ChainResume([T.saved(T.a, at: 100)])
        #expect(said.plan([T.live(T.c)], size: { _ in .plain(0) }).vanished.count == 1)
        #expect(!said.misses([T.live(T.c)]), "said once: the next look does not wait on it again")
    }
}
