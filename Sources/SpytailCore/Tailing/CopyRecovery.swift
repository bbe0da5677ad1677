/// After a copytruncate, where the followed content's unread rest is read from: the decisions of one
/// recovery, as a struct holding its state (swift-nio's state machines); the tailer lists the copies, reads
/// them and waits, this decides.
///
/// The rotator works while we look: logrotate copies `app.log` to `app.log.1`, truncates `app.log`, then
/// (`compress`) writes `app.log.1.gz` and removes `app.log.1` only once the gzip one is whole. Between the
/// look at the folder and the open, the plain copy may be gone (its content now in a gzip copy that was
/// still empty when listed), and a gzip copy read while its compressor writes it ends early. Either way the
/// content is still on disk: look again and go on from the byte reached, instead of giving up.
public struct CopyRecovery: Sendable, Equatable {
    /// A rotated copy as one look at the folder shows it.
    public struct Candidate: Sendable, Equatable {
        public enum Content: Sendable, Equatable {
            /// It starts with the followed content's first line.
            case same
            /// It holds something else.
            case other
            /// No first line to tell by yet: empty, or a gzip whose first line is not inflatable yet
            /// (a compressor has just created it).
            case undecided
        }

        public let path: String
        public let isGzip: Bool
        public let content: Content

        public init(path: String, isGzip: Bool, content: Content) {
            self.path = path
            self.isGzip = isGzip
            self.content = content
        }
    }

    /// How one read of a copy ended.
    public enum ReadOutcome: Sendable, Equatable {
        /// Read to its end: the content is recovered up to `upTo`.
        case whole(upTo: Int64)
        /// A gzip copy ended inside its stream (still being written, or damaged) after `upTo` bytes.
        case cutShort(upTo: Int64)
        /// Gone between the look and the open.
        case vanished
        /// Opened, but it no longer starts with our content (renamed on meanwhile).
        case otherContent
    }

    public enum Action: Sendable, Equatable {
        /// Read `path` from decompressed offset `from` into the followed file's entry stream.
        case read(path: String, from: Int64)
        /// A copy is still being written (`path`): wait for news of it (or the deadline), then look again.
        case wait(for: String)
        /// Done: report these gaps at the offset reached (in order), then read the live file from 0.
        case finish([GapReport.Reason])
    }

    /// How many looks at the folder one recovery takes at most: each look follows a change the rotator made
    /// (a copy gone, a gzip copy closed), so this bounds a rotator that keeps moving, not a normal one.
    public static let maxLooks = 16

    /// The next byte of the followed content to recover.
    public private(set) var offset: Int64
    /// The content was read whole from a copy: nothing more to look for.
    public private(set) var isRecovered = false
    /// Until when a copy still being written is waited for (set at the first look).
    public private(set) var deadline: Duration?
    private let patience: Duration
    private var looks = 0
    /// A copy with our content was found (then the loss window of copytruncate applies, else a plain truncation).
    private var found = false
    /// The gzip copy whose last read ended inside its stream, at `offset`, and whether it was waited for since.
    private var shortCopy: ShortCopy?
    private struct ShortCopy: Sendable, Equatable {
        var path: String
        var waited: Bool
    }
    /// A short copy read again after its wait gave nothing more: damaged, not still being written.
    private var stuck = false
    /// Copies that vanished or changed content (not tried again in this recovery).
    private var refused: Set<String> = []
    /// Undecided (just created) gzip copies waited for once.
    private var waitedFor: Set<String> = []

    /// `offset`: the first byte not read yet; `patience`: how long a copy still being written is waited for
    /// (the run's `tail.rotateWaitMs`).
    public init(offset: Int64, patience: Duration) {
        self.offset = offset
        self.patience = patience
    }

    /// A look at the folder at `now`: what to do with the copies seen.
    public mutating func next(_ candidates: [Candidate], now: Duration) -> Action {
        looks += 1
        let deadline = self.deadline ?? now + patience
        self.deadline = deadline
        guard !isRecovered, looks <= Self.maxLooks else { return finish() }
        let usable = candidates.filter { $0.content == .same && !refused.contains($0.path) }
        if !usable.isEmpty { found = true }
        // A plain copy is whole (its compressor reads it); a gzip one may still be being written.
        if let plain = usable.first(where: { !$0.isGzip }) { return .read(path: plain.path, from: offset) }
        let canWait = now < deadline
        if let gzip = usable.first {
            guard let short = shortCopy, short.path == gzip.path else { return .read(path: gzip.path, from: offset) }
            if stuck || (!short.waited && !canWait) { return finish() }
            if short.waited { return .read(path: gzip.path, from: offset) }
            shortCopy = ShortCopy(path: gzip.path, waited: true)
            return .wait(for: gzip.path)
        }
        if canWait, let pending = candidates.first(where: { $0.isGzip && $0.content == .undecided && !waitedFor.contains($0.path) }) {
            waitedFor.insert(pending.path)
            return .wait(for: pending.path)
        }
        return finish()
    }

    /// What the read of `path` that `next` asked for came to.
    public mutating func readEnded(_ path: String, _ outcome: ReadOutcome) {
        switch outcome {
        case .whole(let upTo):
            offset = max(offset, upTo)
            shortCopy = nil
            isRecovered = true
        case .cutShort(let upTo):
            if upTo > offset || shortCopy?.path != path {
                shortCopy = ShortCopy(path: path, waited: false)  // it gave more: worth another wait
            } else if shortCopy?.waited == true {
                stuck = true
            }
            offset = max(offset, upTo)
        case .vanished, .otherContent:
            refused.insert(path)
        }
    }

    /// The gaps to report now that no copy can give more.
    public func finish() -> Action {
        if !isRecovered && shortCopy != nil { return .finish([.damaged, .copytruncate]) }
        return .finish(found ? [.copytruncate] : [.truncated])
    }
}
