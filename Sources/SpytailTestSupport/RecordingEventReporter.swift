import SpytailIO

/// Spy for `EventReporter`: records every event (safe to read from another thread than the reporting one).
public final class RecordingEventReporter: EventReporter, @unchecked Sendable {
    private let recorded = Locked<[SpytailEvent]>([])
    public init() {}
    public func report(_ event: SpytailEvent) { recorded.withLock { $0.append(event) } }

    public var events: [SpytailEvent] { recorded.withLock { $0 } }
    public var readFailures: [ReadError] {
        events.compactMap { if case .readFailed(let error) = $0 { error } else { nil } }
    }
    public var startedPaths: [String] {
        events.compactMap { if case .fileStarted(let path, _) = $0 { path } else { nil } }
    }
    public var problems: [RunProblem] {
        events.compactMap { if case .problem(let problem) = $0 { problem } else { nil } }
    }
}
