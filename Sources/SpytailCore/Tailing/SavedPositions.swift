/// What a run saves so that the next one resumes where it stopped: where reading of each file stands, and
/// the contents read or skipped under each live path whose chain the run knew (so that a restart tells a
/// rotated copy it never read from one it read: `ChainResume`).
public struct SavedPositions: Sendable, Equatable {
    /// A content seen under a live path, and how far it was read when it was let go part-way known.
    public struct Seen: Sendable, Equatable {
        public var fingerprint: Fingerprint
        public var readTo: Int64?

        public init(_ fingerprint: Fingerprint, readTo: Int64? = nil) {
            self.fingerprint = fingerprint
            self.readTo = readTo
        }
    }

    /// Where a `startAt: end` live file ended when a start first met it and could not open it for want of a
    /// descriptor (a `stat` needs none): the file it was (device and inode) and its size then.
    public struct EndAtStart: Sendable, Equatable {
        public var identity: FileIdentity
        public var size: Int64

        public init(identity: FileIdentity, size: Int64) {
            self.identity = identity
            self.size = size
        }
    }

    public var checkpoints: [Checkpoint]
    /// Per live path, the contents seen under it, oldest first.
    public var seen: [String: [Seen]]
    /// The contents a power loss cut back (found so at a restart), with the epoch their record ids are in
    /// (`ContentMarks`): kept apart from the checkpoints, since a save may have none of such a content yet.
    public var epochs: [Fingerprint: Int]
    /// Per live path, where it ended when the run first met it (`startAt: end`) and could not open it yet: a restart
    /// before a descriptor was free follows it from there too, not from where it ends at the restart.
    public var endsAtStart: [String: EndAtStart]

    public init(checkpoints: [Checkpoint] = [], seen: [String: [Seen]] = [:], epochs: [Fingerprint: Int] = [:],
                endsAtStart: [String: EndAtStart] = [:]) {
        self.checkpoints = checkpoints
        self.seen = seen
        self.epochs = epochs
        self.endsAtStart = endsAtStart
    }
}
