import SpytailCore

/// Something worth telling an operator: all of spytail's observability goes through these.
public enum SpytailEvent: Sendable, Equatable {
    case fileStarted(path: String, compressed: Bool)
    case fileFinished(path: String, lines: Int, bytes: Int64)
    case readFailed(ReadError)
    /// Periodic, while a file is read: bytes and lines of it so far.
    case progress(path: String, bytes: Int64, lines: Int)
    /// `run` follows a file from `offset`.
    case following(path: String, offset: Int64)
    /// A followed file was renamed away (rotation); it is drained, and the path's new file followed.
    case rotated(path: String)
    /// A followed file got shorter than what was read (copytruncate).
    case truncated(path: String)
    /// A file is no longer read (drained after rotation, deleted, or closed to stay under the cap).
    case closed(path: String, reason: String)
    /// Bytes were not exported; a gap record says so in the output too.
    case gap(path: String, bytes: Int64?, reason: String)
    case stateChanged(SpyState)
    case configReloaded(path: String)
    /// A reload was asked for (SIGHUP, `POST /api/reload`) and the file holds the running config.
    case configUnchanged(path: String)
    /// A changed config was refused; the running one stays.
    case configRejected(String)
    /// Something went wrong that `run` copes with: said on stderr, counted by kind.
    case problem(RunProblem)
}
