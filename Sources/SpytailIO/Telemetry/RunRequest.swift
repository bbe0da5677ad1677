import SpytailCore

/// What an observer may ask of `run`.
public enum RunRequest: Sendable, Equatable {
    case setState(SpyState)
    case reload
}
