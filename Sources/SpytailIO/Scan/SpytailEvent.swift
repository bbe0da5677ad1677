/// Something worth telling an operator: all of spytail's observability goes through these.
public enum SpytailEvent: Sendable, Equatable {
    case fileStarted(path: String, compressed: Bool)
    case fileFinished(path: String, lines: Int, bytes: Int64)
    case fileSkipped(path: String, reason: String)
    case readFailed(ReadError)
    /// Periodic, while a file is read: bytes and lines of it so far.
    case progress(path: String, bytes: Int64, lines: Int)
}

/// Receives events: the CLI logs them and draws progress; tests record them (`RecordingEventReporter`).
public protocol EventReporter: AnyObject {
    func report(_ event: SpytailEvent)
}
