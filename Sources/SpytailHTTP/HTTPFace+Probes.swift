import Hummingbird
import SpytailIO

/// The probes: `/healthz` (the run loop turns over) and `/readyz` (`Readiness`, decided in SpytailIO).
extension HTTPFace {
    func health() -> Response {
        let quiet = telemetry.secondsSinceBeat
        guard quiet <= settings.healthWindow else {
            return Self.text(.serviceUnavailable, "the run loop has not turned over for \(Int(quiet)) s\n")
        }
        return Self.text(.ok, "ok\n")
    }

    func readiness() -> Response {
        let readiness = telemetry.current.readiness
        return Self.text(readiness.isReady ? .ok : .serviceUnavailable, "\(readiness)\n")
    }
}
