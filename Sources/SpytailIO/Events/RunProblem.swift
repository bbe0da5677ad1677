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
    /// An output is full (a disk) or not taking more (a network destination): reading pauses.
    case outputFull(SinkError, retrySeconds: Int64)
    case outputsWritable(afterSeconds: Int64)
    /// Stopping while an output is still full: the unwritten lines are read again on restart.
    case stillFullAtStop(SinkError)
    /// A stop came while a rotated file was caught up on a full output: checkpoints stay where they were.
    case stoppedMidCatchUp
    /// A checkpointed file has other bytes before its offset now (cut back by a power loss and written on, or
    /// rewritten in place): read on from `readFrom`, the last earlier position it still holds (0: its start), in
    /// a new epoch of ids.
    case rewrittenInPlace(path: String, offset: Int64, readFrom: Int64)
    /// The rotated chain kept changing while a file was resumed (three looks in a row read nothing): followed from the start.
    case chainKeptChanging(path: String)
    /// A retired rotated file is shorter than what was read of it: not read again.
    case shorterThanRead(path: String, offset: Int64, size: Int64)
    /// A network output cannot deliver (unreachable, 5xx): retried with backoff, records wait (said once).
    case deliveryFailing(destination: String, reason: String, waiting: UInt64)
    /// The destination refused a batch (4xx: a wrong table or column): the output stalls, nothing is
    /// dropped, until the config is fixed and reloaded (the batch is also tried again every `retrySeconds`).
    case deliveryRefused(destination: String, reason: String, retrySeconds: Int64)
    case deliveryRecovered(destination: String, afterSeconds: Int64)
    /// Stopping with records not acknowledged within the shutdown timeout: read again on restart.
    case undeliveredAtStop(destination: String, records: UInt64)
    /// SIGUSR1 while the config says disabled.
    case toggleIgnoredWhileDisabled
    /// `tail.maxOpenFiles` does not fit under the process's descriptor limit: fewer files are kept open.
    case openFileLimit(configured: Int, processLimit: Int, files: Int)

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
        case .outputFull(let error, let seconds):
            "\(error); reading paused, retrying every \(seconds == 1 ? "second" : "\(seconds) s")"
        case .outputsWritable(let seconds): "outputs writable again after \(seconds) s; reading resumes"
        case .stillFullAtStop(let error):
            "\(error); stopping without delivering the last lines (they are read again on restart)"
        case .stoppedMidCatchUp:
            "stopping in the middle of catching up a rotated file while an output is full; checkpoints stay where they were, so that content is read again on restart"
        case .rewrittenInPlace(let path, let offset, let from):
            "\(path): the bytes before the checkpoint's offset \(offset) changed (cut back by a power loss and written on, or rewritten in place); "
                + (from > 0 ? "reading on from offset \(from), the last earlier position it still holds" : "reading it from the start")
                + ", with new record ids (lines read again from there come again under those)"
        case .chainKeptChanging(let path):
            "\(path): its rotated chain kept changing while it was being resumed; following it from the start"
        case .shorterThanRead(let path, let offset, let size):
            "\(path): a rotated file read to offset \(offset) is now shorter (\(size) bytes); not read again"
        case .deliveryFailing(let destination, let reason, let waiting):
            "\(destination): \(reason); retrying with backoff, \(waiting) record(s) waiting (reading pauses when the buffer is full)"
        case .deliveryRefused(let destination, let reason, let seconds):
            "\(destination): the server refused the batch: \(reason); nothing is dropped: fix the config and reload (tried again every \(seconds) s)"
        case .deliveryRecovered(let destination, let seconds): "\(destination): delivering again after \(seconds) s"
        case .undeliveredAtStop(let destination, let records):
            "\(destination): \(records) record(s) not acknowledged at stop; checkpoints stay before them, so they are sent again on restart"
        case .toggleIgnoredWhileDisabled: "SIGUSR1 ignored: the config says \"state\": \"disabled\""
        case .openFileLimit(let configured, let processLimit, let files):
            "tail.maxOpenFiles is \(configured), but the process may open only \(processLimit) descriptors (RLIMIT_NOFILE, its hard limit); at most \(files) files are kept open, the quietest closed with their position kept and reopened when they grow (\(processLimit - files) are kept for outputs, checkpoints and connections). Raise the limit to keep more open: ulimit -n, systemd LimitNOFILE=, docker run --ulimit nofile="
        }
    }
}
