/// `run`'s durations and limits, compiled once from the config (defaults in one table) and swapped as one
/// value on reload.
public struct RunSettings: Sendable, Equatable {
    /// A pending multiline entry is handed out after this long without a new line (`parse.multiline.idleTimeoutMs`).
    public var idleTimeout: Duration
    /// A rotated-away file is retired after it has not grown for this long (`tail.rotateWaitMs`).
    public var rotateWait: Duration
    /// The file outputs are synced and the checkpoint file made durable at most this often (`tail.syncIntervalMs`).
    public var syncInterval: Duration
    /// At most this many files open: `tail.maxOpenFiles`, or fewer when the process may not open that many
    /// descriptors and more (`DescriptorBudget.fileLimit`).
    public var maxOpenFiles: Int
    /// `tail.maxOpenFiles` as the config gives it.
    public var configuredMaxOpenFiles: Int
    /// The process's descriptor limit `maxOpenFiles` was fitted under (nil: not known, not fitted).
    public var processOpenFileLimit: Int?
    /// A full output is tried again this often.
    public var stallRetry: Duration = .seconds(1)
    /// Files and folders inotify cannot watch are looked at this often.
    public var pollInterval: Duration = .seconds(2)
    /// At most this many retired files are remembered (the oldest is forgotten first).
    public var retiredLimit = 256
    /// A backlog of at least this many bytes (history, a rotated member, a live file's unread bytes) is read
    /// through the block-parallel path `scan` uses; smaller ones line by line.
    public var backlogBytes: Int64 = 1 << 20

    /// `rotateWait` in milliseconds, as the config gives it (for messages).
    public var rotateWaitMilliseconds: Int64 {
        rotateWait.components.seconds * 1000 + rotateWait.components.attoseconds / 1_000_000_000_000_000
    }

    /// The defaults, as the README's config table gives them.
    public static let defaults = RunSettings(config: SpytailConfig())

    /// `processOpenFileLimit`: the descriptors the process may open (RLIMIT_NOFILE), when known.
    public init(config: SpytailConfig, processOpenFileLimit: Int? = nil) {
        idleTimeout = .milliseconds(config.parse.multiline?.idleTimeoutMs ?? 1000)
        rotateWait = .milliseconds(config.tail.rotateWaitMs)
        syncInterval = .milliseconds(config.tail.syncIntervalMs)
        configuredMaxOpenFiles = config.tail.maxOpenFiles
        self.processOpenFileLimit = processOpenFileLimit
        maxOpenFiles = processOpenFileLimit.map { DescriptorBudget.fileLimit(configured: config.tail.maxOpenFiles, processLimit: $0) }
            ?? config.tail.maxOpenFiles
    }

    /// `maxOpenFiles` is below the config's, for the process's descriptor limit.
    public var fitsFewerFilesThanConfigured: Bool { maxOpenFiles < configuredMaxOpenFiles }
}
