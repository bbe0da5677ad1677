/// Where one file `run` has open stands, and what each look at it and each timer means for it.
///
/// A struct holding an enum (swift-nio's state machines): every input is a `mutating func` returning the
/// action the tailer carries out; the tailer owns the descriptor and the bytes, this owns the decisions.
public struct FileLifecycle: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Followed under its live path.
        case following
        /// Renamed away (rotation): read through its descriptor wherever it went, until it is deleted or
        /// has not grown for `rotateWait`.
        case draining
        /// Stopped growing while drained: the descriptor is closed, the position kept; read again if it grows.
        case retired
        /// Closed to stay under the descriptor cap, its position kept; reopened on its next event.
        case parked
        /// Deleted and read to its end, or no longer wanted.
        case closed
    }

    /// What a look at the file (fstat + stat, `FileObservation`) asks for.
    public enum LookAction: Sendable, Equatable {
        case nothing
        case read
        /// Shorter than what was read, or its head changed: recover the rest from the rotated copy, read from 0.
        case recoverTruncation
        /// Renamed away: read it to its end; follow the path's new file if there is one.
        case rotatedAway(followNewFile: Bool)
        /// Deleted: read it to its end, emit what it holds back, close it; follow the path's new file.
        case deleted(followNewFile: Bool)
    }

    /// What a timer asks for.
    public enum TimerAction: Sendable, Equatable {
        case nothing
        /// The multiline idle timeout: hand out the pending entry.
        case flushPendingEntry
        /// Drained and quiet for `rotateWait`: read once more; `quietAfterReading` decides.
        case checkQuiet
    }

    public private(set) var state: State
    /// Uptime of the last read that got bytes (or of opening).
    public private(set) var lastGrowth: Duration

    public init(_ state: State = .following, now: Duration) {
        self.state = state
        lastGrowth = now
    }

    public var isFollowed: Bool { state == .following }

    /// A look at the open file; `identity` and `offset` are ours, `observation` what the system shows now.
    public mutating func look(_ observation: FileObservation, identity: FileIdentity, offset: Int64) -> LookAction {
        guard state == .following || state == .draining else { return .nothing }
        switch TailDecision.decide(identity: identity, offset: offset, following: state == .following, observation: observation) {
        case .unchanged: return .nothing
        case .grew: return .read
        case .truncated: return .recoverTruncation
        case .rotated(let newFile):
            state = .draining
            return .rotatedAway(followNewFile: newFile)
        case .deleted(let newFile):
            let wasFollowed = state == .following
            state = .closed
            return .deleted(followNewFile: newFile && wasFollowed)
        }
    }

    /// Bytes were read at `now`.
    public mutating func read(_ bytes: Int64, at now: Duration) {
        if bytes > 0 { lastGrowth = now }
    }

    /// The timers due at `now`: a pending multiline entry after `idleTimeout`, a drained file after `rotateWait`.
    public func timer(now: Duration, settings: RunSettings, hasPendingEntry: Bool) -> TimerAction {
        if state == .draining && now - lastGrowth >= settings.rotateWait { return .checkQuiet }
        if hasPendingEntry && now - lastGrowth >= settings.idleTimeout { return .flushPendingEntry }
        return .nothing
    }

    /// After `.checkQuiet` read `bytes`: still growing stays drained; nothing new retires it. Returns whether it retired.
    public mutating func quietAfterReading(_ bytes: Int64, at now: Duration) -> Bool {
        guard state == .draining else { return false }
        if bytes > 0 {
            lastGrowth = now
            return false
        }
        state = .retired
        return true
    }

    /// The next time a timer of this file is due (nil: none).
    public func nextDeadline(settings: RunSettings, hasPendingEntry: Bool) -> Duration? {
        var deadlines: [Duration] = []
        if hasPendingEntry { deadlines.append(lastGrowth + settings.idleTimeout) }
        if state == .draining { deadlines.append(lastGrowth + settings.rotateWait) }
        return deadlines.min()
    }

    /// Closed to stay under the descriptor cap (a followed file), its position kept.
    public mutating func park() { state = .parked }

    /// Done with it (drained to make room, no longer matched, the run stops).
    public mutating func close() { state = .closed }

    /// A retired file seen again: its size against the offset it was read to.
    public enum Revival: Sendable, Equatable {
        /// Same size: stays retired.
        case unchanged
        /// Grew: drain it again from the kept offset.
        case drainAgain
        /// Shorter than what was read: it is not the content we knew; forget it and say so.
        case forget
    }

    public static func revive(size: Int64, offset: Int64) -> Revival {
        size == offset ? .unchanged : size > offset ? .drainAgain : .forget
    }
}
