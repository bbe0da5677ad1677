/// What one look at a followed file shows, taken by the I/O layer with fstat on the open descriptor and
/// stat on the path. An inotify event is only a hint: every event, a queue overflow and start-up lead to
/// such a look, and `TailDecision.decide` says what to do.
public struct FileObservation: Sendable, Equatable {
    /// Size of the file we hold open.
    public var size: Int64
    /// Its link count: 0 once it is deleted.
    public var links: Int
    /// What the followed path names now (nil: nothing).
    public var pathIdentity: FileIdentity?
    /// The file still starts with the line it was fingerprinted by. A writer may refill a truncated file
    /// past our offset before we look, so size alone cannot tell a truncation.
    public var headMatches: Bool

    public init(size: Int64, links: Int, pathIdentity: FileIdentity?, headMatches: Bool = true) {
        self.size = size
        self.links = links
        self.pathIdentity = pathIdentity
        self.headMatches = headMatches
    }
}

/// The reconcile step's verdict for a followed file (Fluent Bit's in_tail and Vector's file source decide
/// the same things; here it is a pure function, tested with scripted observations).
public enum TailDecision: Sendable, Equatable {
    /// Nothing new.
    case unchanged
    /// New bytes past our offset: read them.
    case grew
    /// The file is shorter than our offset (copytruncate, or a writer that truncated it): recover what
    /// we had not read from the rotated copy if there is one, then read the file from 0.
    case truncated
    /// The path now names another file, or nothing, and ours still exists under another name
    /// (rename rotation): read ours to its end, keep draining it a while, and follow the path's new file.
    case rotated(newFileAtPath: Bool)
    /// Our file was deleted: read it to its end, emit what is held, and close it.
    case deleted(newFileAtPath: Bool)

    /// Decides from what we know (`identity`, `offset` = bytes consumed) and what the look shows.
    public static func decide(identity: FileIdentity, offset: Int64, following: Bool,
                              observation: FileObservation) -> TailDecision {
        if observation.size < offset || !observation.headMatches { return .truncated }
        let pathMoved = following && observation.pathIdentity != identity
        if observation.links == 0 { return .deleted(newFileAtPath: following && observation.pathIdentity != nil) }
        if pathMoved { return .rotated(newFileAtPath: observation.pathIdentity != nil) }
        return observation.size > offset ? .grew : .unchanged
    }
}
