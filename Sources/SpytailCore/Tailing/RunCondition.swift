/// The run's condition: running, or stalled on a full output since a time; and whether checkpoints may be
/// saved (they fail to save, or are frozen after a stop abandoned a catch-up). Inputs are `mutating func`s
/// returning what to report; the tailer does the I/O.
public struct RunCondition: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case running
        /// An output is full: reading pauses, nothing is checkpointed, the output is retried every `stallRetry`.
        /// `said`: the run says the stall and its end (a full disk); a network output says its own problems.
        case stalled(since: Duration, lastRetry: Duration, said: Bool)
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

    /// An output reported it is full at `now`. Returns true when this starts a stall (to be said once, by the
    /// run when `said`: see `saysStall`).
    public mutating func outputFull(at now: Duration, said: Bool = true) -> Bool {
        switch state {
        case .running:
            state = .stalled(since: now, lastRetry: now, said: said)
            return true
        case .stalled(let since, _, let said):
            state = .stalled(since: since, lastRetry: now, said: said)
            return false
        }
    }

    /// Whether the run says the current stall and its end (the output that stalled it does not say its own).
    public var saysStall: Bool { if case .stalled(_, _, let said) = state { said } else { false } }

    /// The end of a stall: how long reading was paused, and whether the run says so.
    public struct Resumption: Sendable, Equatable {
        public let paused: Duration
        public let said: Bool
    }

    /// Whether a retry of the full output is due at `now`.
    public func retryDue(at now: Duration, settings: RunSettings) -> Bool {
        guard case .stalled(_, let lastRetry, _) = state else { return false }
        return now - lastRetry >= settings.stallRetry
    }

    /// Every output took its bytes: returns how long reading was paused (nil: it was not).
    public mutating func outputsWritable(at now: Duration) -> Resumption? {
        guard case .stalled(let since, _, let said) = state else { return nil }
        state = .running
        return Resumption(paused: now - since, said: said)
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
        guard case .stalled(_, let lastRetry, _) = state else { return nil }
        return lastRetry + settings.stallRetry
    }
}
