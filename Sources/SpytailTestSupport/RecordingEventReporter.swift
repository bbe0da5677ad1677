import SpytailIO

/// Spy for `EventReporter`: records every event.
public final class RecordingEventReporter: EventReporter {
    public private(set) var events: [SpytailEvent] = []
    public init() {}
    public func report(_ event: SpytailEvent) { events.append(event) }

    public var readFailures: [ReadError] {
        events.compactMap { if case .readFailed(let error) = $0 { error } else { nil } }
    }
    public var startedPaths: [String] {
        events.compactMap { if case .fileStarted(let path, _) = $0 { path } else { nil } }
    }
}
