import SpytailCore

/// A problem `run` tells the operator about (on stderr as a warning), typed so that tests, metrics and the
/// HTTP face can tell them apart; `description` is the one place each is put into words.
public enum RunProblem: Sendable, Equatable, CustomStringConvertible {
    /// No inotify instance left: files and the config are looked at every `pollSeconds`.
    case inotifyUnavailable(reason: String, pollSeconds: Int64)
    /// A folder cannot be watched; it is looked at every `pollSeconds` instead.
    case watchFailed(directory: String, error: String, limitReached: Bool, pollSeconds: Int64)
    /// A path of a source cannot be read (said once until it can).
    case unreadable(path: String, problem: String)
    /// The checkpoint file could not be used (damaged: set aside).
    case checkpointsUnusable(String)
    /// Saving checkpoints failed; exporting goes on (said once until a save works).
    case checkpointSaveFailed(String)
    case checkpointsSavedAgain
    /// An output is full: reading pauses.
    case outputFull(destination: String, retrySeconds: Int64)
    case outputsWritable(afterSeconds: Int64)
    /// Stopping while an output is still full: the unwritten lines are read again on restart.
    case stillFullAtStop(destination: String)
    /// A stop came while a rotated file was caught up on a full output: checkpoints stay where they were.
    case stoppedMidCatchUp
    /// A checkpointed file has other bytes before its offset now: read from the start.
    case rewrittenInPlace(path: String, offset: Int64)
    /// The rotated chain kept changing while a file was resumed: followed from the start.
    case chainKeptChanging(path: String)
    /// A retired rotated file is shorter than what was read of it: not read again.
    case shorterThanRead(path: String, offset: Int64, size: Int64)
    /// SIGUSR1 while the config says disabled.
    case toggleIgnoredWhileDisabled

    public var description: String {
        switch self {
        case .inotifyUnavailable(let reason, let seconds):
            "cannot start inotify (\(reason)): the limit fs.inotify.max_user_instances is reached; raise it with sysctl. Files and the config are looked at every \(seconds) s instead"
        case .watchFailed(let directory, let error, let limit, let seconds):
            "cannot watch \(directory): \(error)\(limit ? " (the limit fs.inotify.max_user_watches is reached; raise it with sysctl)" : ""); looking at it every \(seconds) s instead"
        case .unreadable(let path, let problem): problem.hasPrefix(path) ? problem : "\(path): \(problem)"
        case .checkpointsUnusable(let error): error
        case .checkpointSaveFailed(let error):
            "\(error); exporting goes on, saving is retried after every batch (a restart now would export again what came since the last save)"
        case .checkpointsSavedAgain: "checkpoints saved again"
        case .outputFull(let destination, let seconds):
            "\(destination): no space left on device; reading paused, retrying every \(seconds == 1 ? "second" : "\(seconds) s")"
        case .outputsWritable(let seconds): "outputs writable again after \(seconds) s; reading resumes"
        case .stillFullAtStop(let destination):
            "\(destination): still no space; stopping without writing the last bytes (they are read again on restart)"
        case .stoppedMidCatchUp:
            "stopping in the middle of catching up a rotated file while an output is full; checkpoints stay where they were, so that content is read again on restart"
        case .rewrittenInPlace(let path, let offset):
            "\(path): rewritten in place since the checkpoint (the bytes before offset \(offset) changed); reading it from the start"
        case .chainKeptChanging(let path):
            "\(path): its rotated chain kept changing while it was being resumed; following it from the start"
        case .shorterThanRead(let path, let offset, let size):
            "\(path): a rotated file read to offset \(offset) is now shorter (\(size) bytes); not read again"
        case .toggleIgnoredWhileDisabled: "SIGUSR1 ignored: the config says \"state\": \"disabled\""
        }
    }
}
