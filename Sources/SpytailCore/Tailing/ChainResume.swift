/// Resuming the content saved under one live path (after a restart, when enabled again, or when a parked
/// file gets an event): each checkpoint's content is found again by its fingerprint in the path's rotated
/// chain, read from its offset, every newer member read whole (but those the last run read: `seen`), and the
/// live file followed.
///
/// A rotation that runs between looking at a name and opening it moves the content, so the driver may look
/// at the chain several times; this value remembers across looks what was read to its end (not read again)
/// and which lost contents were already said. Each look is planned here, without I/O; the driver opens,
/// reads and follows as the plan says, and stops at the first member that no longer holds its content.
///
/// **What was seen.** Every content read or skipped under the path (`seen`: the run's own, or the last
/// run's, saved with the checkpoints; nil when not known, as from a checkpoint file of an older spytail) keeps
/// a resume from guessing by position in the chain:
/// - A copy created, written and rotated away between two looks of the last run (or while a stop was under
///   way) sits *before* the oldest checkpointed member, yet was never read: the members after the newest
///   seen one and before the checkpointed one, whose content was never seen, are read whole first.
/// - A copy read to its end and let go sits *after* it (a drained file kept its checkpoint, the next one
///   was read and closed): it is not read again (a content let go part-way is read from where it stopped).
/// - With the checkpointed content gone (rewritten in place while disabled, say), what was never seen is
///   read before the live file, rather than nothing.
public struct ChainResume: Sendable {
    /// One member of the chain as looked at now, oldest first; the live file, when it exists, last.
    public struct Member: Sendable, Equatable {
        public var fingerprint: Fingerprint?
        public var isLive: Bool

        public init(fingerprint: Fingerprint?, isLive: Bool) {
            self.fingerprint = fingerprint
            self.isLive = isLive
        }
    }

    /// How a member is read.
    public enum Step: Sendable, Equatable {
        /// The live file, followed from `offset`; `saved` is its checkpoint, whose tail the driver checks
        /// (rewritten in place since: followed from 0 instead, and said).
        case follow(member: Int, offset: Int64, saved: Checkpoint?)
        /// A plain rotated copy that was being drained or was retired: its writer may still append.
        case drain(member: Int, offset: Int64, fingerprint: Fingerprint)
        /// A rotated member read whole from `offset` (plain or gzip).
        case catchUp(member: Int, offset: Int64)
    }

    /// How big a rotated member's content is, as far as can be told without reading it.
    public enum Size: Sendable, Equatable {
        /// A plain file of this many bytes (a writer may still append to it).
        case plain(Int64)
        /// A gzip file whose trailer gives its content's size modulo 2³² (ISIZE, RFC 1952; a member being
        /// written has no trailer yet, and what it says then is whatever its last bytes are).
        case gzip(isize: UInt32)

        /// Whether the content holds more than `offset` bytes. For gzip only whether the trailer disagrees
        /// with `offset`: a content never shrinks, and one that grew by exactly a multiple of 4 GiB is taken as
        /// not grown.
        public func isPast(_ offset: Int64) -> Bool {
            switch self {
            case .plain(let size): size > offset
            case .gzip(let isize): isize != UInt32(truncatingIfNeeded: offset)
            }
        }

        public var isPlain: Bool { if case .plain = self { true } else { false } }
    }

    /// What one look at the chain leads to.
    public struct Plan: Sendable, Equatable {
        /// Checkpointed content found nowhere in the chain, not drained: lost, said as a `vanished` gap.
        public var vanished: [Checkpoint] = []
        /// No member holds known content: the live file (if any) is followed from its start.
        public var startsFresh = false
        public var steps: [Step] = []
        /// The live file is not the chain's newest member (it is gone): looked at again after the steps.
        public var looksAtLiveFile = false

        public init(vanished: [Checkpoint] = [], startsFresh: Bool = false, steps: [Step] = [], looksAtLiveFile: Bool = false) {
            self.vanished = vanished
            self.startsFresh = startsFresh
            self.steps = steps
            self.looksAtLiveFile = looksAtLiveFile
        }
    }

    public let checkpoints: [Checkpoint]

    /// The checkpoint of content `fingerprint` at `offset` (the one a step reads from), if any.
    public func saved(_ fingerprint: Fingerprint?, at offset: Int64) -> Checkpoint? {
        checkpoints.last { $0.fingerprint == fingerprint && $0.offset == offset }
    }
    /// The contents seen under the path, the checkpointed ones too (nil: not known; then nothing before the
    /// checkpointed member is read, and everything after it is).
    public let seen: Set<Fingerprint>?
    /// How far the contents let go part-way known were read.
    private let seenReadTo: [Fingerprint: Int64]
    /// Contents read to their end by earlier looks.
    public private(set) var delivered = Set<Fingerprint>()
    private var vanishedSaid = Set<Fingerprint>()

    /// Everything seen under the path since its chain was first read or noted is in `seen` (none dropped for the
    /// bound): a member with content not among it was written since, wherever it sits in the chain — a copy let
    /// go while still empty and written later by a writer that had not reopened, say — and is read.
    public let seenWhole: Bool

    public init(_ checkpoints: [Checkpoint], seen: [SavedPositions.Seen]? = nil, seenWhole: Bool = false) {
        self.checkpoints = checkpoints
        self.seenWhole = seen != nil && seenWhole
        self.seen = seen.map { Set($0.map(\.fingerprint) + checkpoints.map(\.fingerprint)) }
        seenReadTo = Dictionary((seen ?? []).compactMap { s in s.readTo.map { (s.fingerprint, $0) } }, uniquingKeysWith: { _, last in last })
    }

    /// Plans one look at `members`. `size(i)` is member `i`'s size (nil: not readable), asked only of
    /// checkpointed rotated members and of the newest seen one let go part-way.
    public mutating func plan(_ members: [Member], size: (Int) -> Size?) -> Plan {
        var plan = Plan()
        // One content under two checkpoints (a first start inside copytruncate's window: the copy, then the live
        // file from where the copy ended): read up to the further one.
        let offsets = Dictionary(checkpoints.map { ($0.fingerprint, $0.offset) }, uniquingKeysWith: max)
        let present = Set(members.compactMap(\.fingerprint))
        // A drained file was read to its end when it went quiet: gone now, nothing of it was lost.
        for checkpoint in checkpoints where !present.contains(checkpoint.fingerprint) && !checkpoint.drained
            && !delivered.contains(checkpoint.fingerprint) && vanishedSaid.insert(checkpoint.fingerprint).inserted {
            plan.vanished.append(checkpoint)
        }
        // Reading starts at the oldest member holding a checkpoint or read by an earlier look (if retention
        // removed the checkpointed one meanwhile, the members after what was read still follow). With none, but
        // what was seen known (the content is gone, or the live file was empty), at the live file, after the
        // unseen copies.
        let checkpointed = members.firstIndex { $0.fingerprint.map { offsets[$0] != nil || delivered.contains($0) } ?? false }
        guard let start = checkpointed ?? (seen == nil ? nil : members.lastIndex { $0.isLive } ?? members.count) else {
            plan.startsFresh = true
            return plan
        }
        // What the live file holds now: a copy of it is not read (copytruncate's window).
        let liveContent = members.last.flatMap { $0.isLive ? $0.fingerprint : nil }
        var planned = delivered
        for (index, offset) in reads(before: start, in: members, liveContent: liveContent, size: size) {
            guard let fp = members[index].fingerprint, planned.insert(fp).inserted else { continue }
            plan.steps.append(.catchUp(member: index, offset: offset))
        }
        for index in start..<members.count {
            let member = members[index]
            // Both forms of one rotation may exist (compression under way): each content is read once.
            if let fp = member.fingerprint, !member.isLive, planned.contains(fp) { continue }
            // A copy of what the live file still holds (copytruncate's window: copied, not yet truncated): the
            // live file is read from the offset, and the copy is what a truncate later is recovered from.
            if let fp = member.fingerprint, !member.isLive, fp == liveContent { continue }
            if let fp = member.fingerprint, !member.isLive, offsets[fp] == nil, seen?.contains(fp) == true {
                planned.insert(fp)
                if let readTo = seenReadTo[fp] { plan.steps.append(.catchUp(member: index, offset: readTo)) }
                continue
            }
            let offset = member.fingerprint.flatMap { offsets[$0] } ?? 0
            if member.isLive {
                plan.steps.append(.follow(member: index, offset: offset, saved: offset > 0 ? saved(member.fingerprint, at: offset) : nil))
            } else if let fp = member.fingerprint, offsets[fp] != nil, size(index)?.isPlain == true {
                plan.steps.append(.drain(member: index, offset: offset, fingerprint: fp))
                planned.insert(fp)
            } else {
                plan.steps.append(.catchUp(member: index, offset: offset))
                if let fp = member.fingerprint { planned.insert(fp) }
            }
        }
        plan.looksAtLiveFile = members.last?.isLive != true
        return plan
    }

    /// What before `start` is read, and from where: the members never seen under the path, whole, those after
    /// the oldest member whose content was seen (or read by an earlier look) — also between two seen ones: a
    /// copy that went by between two looks while the one after it was read — or all of them when none was
    /// seen (older than every seen one, a member is history: the list of what was seen is bounded); and the
    /// newest seen member past where it was let go, when it grew since (a writer that had not reopened; also
    /// when it was gzipped after it grew, as its trailer tells). Members without a complete first line cannot be
    /// named and are left, and so is a copy of what the live file holds (copytruncate's window): the live file
    /// is read instead. With `seenWhole`, no member is history: every one never seen is read.
    private func reads(before start: Int, in members: [Member], liveContent: Fingerprint?,
                       size: (Int) -> Size?) -> [(member: Int, offset: Int64)] {
        guard let seen else { return [] }
        let known = { (member: Member) in member.fingerprint.map { seen.contains($0) || self.delivered.contains($0) } ?? false }
        let oldestKnown = seenWhole ? 0 : members[..<start].firstIndex(where: known) ?? -1
        let newestKnown = members[..<start].lastIndex(where: known) ?? -1
        var reads: [(member: Int, offset: Int64)] = []
        for index in max(oldestKnown, 0)..<start where members[index].fingerprint != nil && members[index].fingerprint != liveContent {
            if !known(members[index]) {
                reads.append((index, 0))
            } else if index == newestKnown, let fp = members[index].fingerprint, let readTo = seenReadTo[fp],
                      size(index)?.isPast(readTo) == true {
                reads.append((index, readTo))
            }
        }
        return reads
    }

    /// Whether some checkpointed content is in none of `members` (and was neither drained nor read by an
    /// earlier look): `plan` would call it vanished. The caller looks at the chain once more first, since a
    /// rotation between listing the folder and reading each member's first line hides a renamed member.
    public func misses(_ members: [Member]) -> Bool {
        let present = Set(members.compactMap(\.fingerprint))
        return checkpoints.contains { !$0.drained && !delivered.contains($0.fingerprint) && !present.contains($0.fingerprint) && !vanishedSaid.contains($0.fingerprint) }
    }

    /// A member's content was read to its end: a later look does not read it again.
    public mutating func read(_ fingerprint: Fingerprint) { delivered.insert(fingerprint) }
}
