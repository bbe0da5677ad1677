/// Where reading of one content stood at its recent checkpoint saves, kept so that a restart can find a
/// position the file still holds after a power loss cut it back.
///
/// A power loss keeps of a file what the kernel had written back: everything but roughly the last half
/// minute (Linux writes dirty pages back once they are 30 s old). The checkpoint's own offset may lie in what
/// was lost, and then the app writes new lines where the lost ones were. So each save also notes its offset,
/// and the trail keeps, for each of `reach` (4, 16, 40, 64 and 256 s), the newest position noted at least that
/// long ago (`anchors`, saved with the checkpoint): a few positions a power loss most likely left in place, the
/// nearest first. To have one at hand when a reach is crossed, it also keeps the oldest position not yet that
/// old; so an anchor is at most the gap to the reach below it older than its reach (the 40 s one 40 to 64 s
/// old). At most eleven positions, however often saves come. Pure: time is passed in.
public struct AnchorTrail: Sendable, Equatable {
    /// How far back the saved positions reach.
    public static let reach: [Duration] = [.seconds(4), .seconds(16), .seconds(40), .seconds(64), .seconds(256)]

    /// Positions noted and kept, newest first, with when.
    private var marks: [Mark] = []
    /// For each reach, the newest position noted at least that long ago (each once), newest first.
    public private(set) var anchors: [Checkpoint.Anchor] = []

    struct Mark: Sendable, Equatable {
        var anchor: Checkpoint.Anchor
        var at: Duration
    }

    /// A trail started from a checkpoint's saved positions (`saved`, newest first): when they were noted is not
    /// known (another process noted them), so they count as older than the farthest reach, in their order.
    public init(_ saved: [Checkpoint.Anchor] = [], now: Duration) {
        let old = now - Self.reach.last! - .seconds(1)
        marks = saved.enumerated().map { k, anchor in Mark(anchor: anchor, at: old - .seconds(k)) }
        anchors = saved
    }

    /// A save at `anchor` (the checkpoint's offset and tail hash) at `now`. A position already noted last (the
    /// file did not move) is not noted again; the trail still ages.
    public mutating func note(_ anchor: Checkpoint.Anchor, at now: Duration) {
        var all = marks
        if all.first?.anchor != anchor { all.insert(Mark(anchor: anchor, at: now), at: 0) }
        var kept: [Mark] = all.prefix(1).map { $0 }
        var reached: [Mark] = []
        for reach in Self.reach {
            if let newest = all.first(where: { now - $0.at >= reach }), reached.last != newest { reached.append(newest) }
            if let candidate = all.last(where: { now - $0.at < reach }) { kept.append(candidate) }
        }
        kept += reached
        marks = all.filter { kept.contains($0) }
        anchors = reached.map(\.anchor)
    }
}
