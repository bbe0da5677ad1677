import SpytailCore

/// Receives events: the CLI logs them and draws progress; tests record them (`RecordingEventReporter`).
public protocol EventReporter: AnyObject {
    func report(_ event: SpytailEvent)
}
