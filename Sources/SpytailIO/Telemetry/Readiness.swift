import SpytailCore

/// Whether `run` is ready for traffic, decided here only: `/readyz` answers with it and `/api/info` reports it.
/// Ready means the start-up reconcile is done, no output holds reading back, and the state is not `disabled`.
public enum Readiness: Sendable, Equatable, CustomStringConvertible {
    case starting
    case stalled(on: String)
    case disabled
    case ready(SpyState)

    public init(_ snapshot: RunSnapshot) {
        if !snapshot.started {
            self = .starting
        } else if let stalled = snapshot.stalledOn {
            self = .stalled(on: stalled)
        } else if snapshot.state == .disabled {
            self = .disabled
        } else {
            self = .ready(snapshot.state)
        }
    }

    public var isReady: Bool {
        if case .ready = self { return true }
        return false
    }

    /// The reason, as `/readyz` says it.
    public var description: String {
        switch self {
        case .starting: "starting: reading what the files hold"
        case .stalled(let output): "output stalled: \(output)"
        case .disabled: "state is disabled"
        case .ready(let state): "ready (\(state.rawValue))"
        }
    }
}

extension RunSnapshot {
    public var readiness: Readiness { Readiness(self) }
}
