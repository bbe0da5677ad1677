import SpytailCore

/// Passes every event on (to the console) and keeps what observers are owed: the problems said on stderr
/// (the last `RunTelemetry.problemsKept`, and their count) and gaps counted by reason.
public final class TelemetryReporter: EventReporter {
    let next: any EventReporter
    let telemetry: RunTelemetry

    public init(forwardingTo next: any EventReporter, telemetry: RunTelemetry) {
        self.next = next
        self.telemetry = telemetry
    }

    public func report(_ event: SpytailEvent) {
        switch event {
        case .problem(let problem): telemetry.problem("\(problem)")
        case .readFailed(let error): telemetry.problem(error.description)
        case .configRejected(let message): telemetry.problem("config change refused: \(message)")
        case .gap(let path, let bytes, let reason):
            telemetry.countGap(reason: reason)
            telemetry.problem("\(path): gap of \(bytes.map { "\($0) bytes" } ?? "an unknown number of bytes") (\(reason))")
        default: break
        }
        next.report(event)
    }
}
