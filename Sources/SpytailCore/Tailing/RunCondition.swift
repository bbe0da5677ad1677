/// The run's condition: running, or stalled on a full output since a time; and whether checkpoints may be
/// saved (they fail to save, or are frozen after a stop abandoned a catch-up). Inputs are `mutating func`s
/// returning what to report; the tailer does the I/O.
public struct RunCondition: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case running
        /// An output is full: reading pauses, nothing is checkpointed, the output is retried every `stallRetry`.
        case stalled(since: Duration, lastRetry: Duration)
    }

    public enum Checkpoints: Sendable, Equatable {
        case saving
        /// The last save failed (said once); tried again after every batch.
        case failing
        /// A stop abandoned a catch-up: this process saves no checkpoint any more.
        case frozen
    }

    public private(set) var state: State = .running
    public private(set) var checkpoints: Checkpoints = .saving

    public init() {}

    public var isStalled: Bool { if case .stalled = state { true } else { false } }
    /// Checkpoints move only while running and not frozen: never ahead of what every output took.
    public var mayCheckpoint: Bool { state == .running && checkpoints != .frozen }

    /// An output reported it is full at `now`. Returns true the first time (to be said once).
    public mutating func outputFull(at now: Duration) -> Bool {
        switch state {
        case .running:
            state = .stalled(since: now, lastRetry: now)
            return true
        case .stalled(let since, _):
            state = .stalled(since: since, lastRetry: now)
            return false
        }
    }

    /// Whether a retry of the full output is due at `now`.
    public func retryDue(at now: Duration, settings: RunSettings) -> Bool {
        guard case .stalled(_, let lastRetry) = state else { return false }
        return now - lastRetry >= settings.stallRetry
    }

    /// Every output took its bytes: returns how long reading was paused (nil: it was not).
    public mutating func outputsWritable(at now: Duration) -> Duration? {
        guard case .stalled(let since, _) = state else { return nil }
        state = .running
        return now - since
    }

    /// A stop came while a catch-up waited on a full output: the catch-up is abandoned, checkpoints freeze.
    public mutating func freezeCheckpoints() { checkpoints = .frozen }

    /// A checkpoint save succeeded: returns true when it had been failing (to say it works again).
    public mutating func checkpointSaved() -> Bool {
        guard checkpoints == .failing else { return false }
        checkpoints = .saving
        return true
    }

    /// A checkpoint save failed: returns true the first time (to be said once).
    public mutating func checkpointFailed() -> Bool {
        guard checkpoints == .saving else { return false }
        checkpoints = .failing
        return true
    }

    /// When the next retry of a full output is due (nil: not stalled).
    public func nextDeadline(settings: RunSettings) -> Duration? {
        guard case .stalled(_, let lastRetry) = state else { return nil }
        return lastRetry + settings.stallRetry
    }
}
