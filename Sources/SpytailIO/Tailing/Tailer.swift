import Glibc
import SpytailCore

/// The engine of `spytail run`: follows the configured files as they grow, rotate, get truncated or
/// deleted, and exports every line once through the config's pipeline.
///
/// One thread runs it. inotify's thread and the signal thread only post `RunEvent`s to `inbox`; each
/// batch of events ends in one reconcile per file touched (fstat + stat, `TailDecision`), reads to the
/// end, flushes the outputs, and then — never before — saves checkpoints. Timers (multiline idle flush,
/// draining rotated files, checkpoint fsync) are deadlines of the loop's wait, not sleeps.
public final class Tailer<C: Clock> where C.Duration == Duration {
    let clock: C
    let started: C.Instant
    let events: any EventReporter
    let store: (any CheckpointStore)?
    public let inbox = BlockingQueue<RunEvent>()
    var watcher: InotifyWatcher?

    var configFile: ConfigFile
    var discovery: PathDiscovery
    var pipeline: EntryPipeline
    var state: SpyState

    /// Open files by identity; live paths to the identity followed there; files closed under the cap.
    var files: [FileIdentity: TailedFile] = [:]
    var byPath: [String: FileIdentity] = [:]
    var parked: [String: Checkpoint] = [:]
    /// Rotated-away files read to their end and closed while quiet, by identity: read again if they grow.
    var retired: [FileIdentity: RetiredFile] = [:]
    var retiredCount = 0
    var watched: Set<String> = []
    /// Folders watched only because a drained or retired file sits there now, with how many do.
    var drainWatches: [String: Int] = [:]
    /// Contents (first-line fingerprints) seen under each live path in this run, the newest last (bounded).
    var seenContents: [String: [Fingerprint]] = [:]
    var lastSaved: [Checkpoint] = []
    var lastSync: Duration = .zero
    var unsyncedChanges = false
    let buffer: UnsafeMutableRawBufferPointer

    public init(configFile: ConfigFile, store: (any CheckpointStore)?, events: any EventReporter, clock: C) throws(SinkError) {
        self.clock = clock
        started = clock.now
        self.events = events
        self.store = store
        self.configFile = configFile
        discovery = PathDiscovery(baseDirectory: configFile.baseDirectory)
        pipeline = try Self.makePipeline(configFile)
        state = configFile.config.state
        buffer = .allocate(byteCount: 256 * 1024, alignment: 64)
    }

    deinit { buffer.deallocate() }

    var config: SpytailConfig { configFile.config }
    var uptime: Duration { started.duration(to: clock.now) }

    static func makePipeline(_ file: ConfigFile) throws(SinkError) -> EntryPipeline {
        let outputs = try OutputOpener.open(file.config.outputs, vocabulary: file.compiled.rules.vocabulary, resolve: file.resolve)
        return EntryPipeline(config: file.compiled, sinks: outputs.map { FormattingSink(formatter: $0.formatter, writer: $0.writer) })
    }

    // MARK: the loop

    /// Runs until SIGTERM or SIGINT; then flushes, saves checkpoints and returns. An output that fails
    /// otherwise than by filling up (its reader went away, an I/O error) ends the run with that error,
    /// after the checkpoints of what it had received are made durable.
    public func run() throws(SinkError) {
        let inbox = self.inbox
        do {
            watcher = try InotifyWatcher { event in inbox.push(.watch(event)) }
        } catch {
            events.report(.warning("cannot start inotify (\(error)): the limit fs.inotify.max_user_instances is reached; raise it with sysctl. Files and the config are looked at every 2 s instead"))
        }
        configStamp = FileStamp(configFile.path)
        do {
            try follow()
        } catch {
            watcher?.stop(waiting: false)
            saveDelivered()
            throw error
        }
    }

    private func follow() throws(SinkError) {
        do {
            try startUp()
        } catch where error.cause == .noSpace {
            stall(error)  // what start-up did not get to is picked up when the output drains
        }
        watcher?.start()
        while true {
            var batch: [RunEvent] = []
            if !deferred.isEmpty {
                batch = deferred + inbox.drain()
                deferred = []
            } else if case .some(.some(let first)) = inbox.pop(timeout: nextTimeout()) {
                batch = [first] + inbox.drain()
            }
            do {
                if try handle(batch) == .stop { break }
                try onTimers()
                try commit(durable: false)
            } catch where error.cause == .noSpace {
                stall(error)
            }
        }
        try shutDown()
    }

    /// An output is full: reading pauses (nothing more is taken in), no checkpoint moves, and the
    /// outputs are retried every second; the bytes already formatted wait in the sinks.
    func stall(_ error: SinkError) {
        if stalledSince == nil {
            stalledSince = uptime
            lastStallRetry = uptime
            events.report(.warning("\(error.destination): no space left on device; reading paused, retrying every second"))
        }
    }

    /// Retries a full output; once everything is out, reading resumes where it stopped.
    func retryStalledOutputs() throws(SinkError) {
        guard stalledSince != nil, uptime - lastStallRetry >= .seconds(1) || !pipeline.isStalled else { return }
        do {
            try pipeline.flush()
        } catch where error.cause == .noSpace {
            lastStallRetry = uptime
            return
        }
        endStall()
        try reconcileEverything()
    }

    /// Every output took its bytes: says how long reading was paused.
    func endStall() {
        guard let since = stalledSince else { return }
        stalledSince = nil
        events.report(.warning("outputs writable again after \(Self.seconds(uptime - since)) s; reading resumes"))
    }

    static func seconds(_ d: Duration) -> String { "\(d.components.seconds)" }

    enum Outcome { case goOn, stop }

    func handle(_ batch: [RunEvent]) throws(SinkError) -> Outcome {
        var directories = Set<String>(), paths = Set<String>(), arrived = Set<String>(), everything = false, reload = false
        for event in batch {
            switch event {
            case .signal(SIGTERM), .signal(SIGINT):
                return .stop
            case .signal(SIGHUP):
                reload = true
            case .signal(SIGUSR1):
                try toggleRecording()
            case .signal:
                break
            case .watch(.overflow):
                everything = true
            case .watch(.watchFailed(let directory, let errno)):
                reportWatchFailure(directory, errno)
            case .watch(.changed(let directory, let name, let kind)):
                if directory == Directory.parent(of: configFile.path) && name == Directory.baseName(of: configFile.path) {
                    reload = true
                } else if kind == .modified, let name {
                    paths.insert(Directory.join(directory, name))
                } else {
                    if kind == .directoryCreated || kind == .directoryGone { try rewatch() }
                    if kind == .arrived, let name { arrived.insert(Directory.join(directory, name)) }
                    directories.insert(directory)
                }
            }
        }
        if reload { try reloadConfig() }
        guard state != .disabled else { return .goOn }
        if everything {
            try reconcileEverything()
        } else {
            for directory in directories { try reconcileDirectory(directory) }
            for path in paths where !directories.contains(Directory.parent(of: path)) { try reconcilePath(path) }
        }
        for path in arrived.sorted() { try catchUpUnseenRotation(path) }
        return .goOn
    }

    /// Time until the next timer is due (nil: none).
    func nextTimeout() -> Duration? {
        var deadlines: [Duration] = []
        let idle = Duration.milliseconds(config.parse.multiline?.idleTimeoutMs ?? 1000)
        let rotateWait = Duration.milliseconds(config.tail.rotateWaitMs)
        for file in files.values {
            if file.hasPendingEntry { deadlines.append(file.lastActivity + idle) }
            if !file.following { deadlines.append(file.lastActivity + rotateWait) }
        }
        if unsyncedChanges { deadlines.append(lastSync + .milliseconds(config.tail.syncIntervalMs)) }
        if stalledSince != nil { deadlines.append(lastStallRetry + .seconds(1)) }
        if watcher == nil || !failedWatches.isEmpty { deadlines.append(lastPoll + .seconds(2)) }
        guard let next = deadlines.min() else { return nil }
        return max(.zero, next - uptime) + .milliseconds(1)
    }

    /// Folders inotify could not watch (looked at every 2 s instead), and those already reported.
    var failedWatches: Set<String> = []
    var reportedWatchFailures: Set<String> = []
    var lastPoll: Duration = .zero
    /// The config file as last loaded, to notice a change without inotify.
    var configStamp: FileStamp?
    /// Live paths already reported as unreadable.
    var unreadable: Set<String> = []
    /// When an output became full (nil: every output writable).
    var stalledSince: Duration?
    var lastStallRetry: Duration = .zero
    /// Events taken from the inbox while waiting inside a catch-up, for the loop's next batch.
    var deferred: [RunEvent] = []
    /// Set when a catch-up was abandoned: no checkpoint may be saved by this process any more.
    var checkpointsFrozen = false
    /// The last save of the checkpoints failed (reported once until one succeeds).
    var checkpointsFailing = false

    func onTimers() throws(SinkError) {
        if stalledSince != nil {
            try retryStalledOutputs()
            if stalledSince != nil { return }
        }
        guard !pipeline.isStalled else { return }
        let now = uptime
        let idle = Duration.milliseconds(config.parse.multiline?.idleTimeoutMs ?? 1000)
        let rotateWait = Duration.milliseconds(config.tail.rotateWaitMs)
        for file in Array(files.values) {
            if !file.following && now - file.lastActivity >= rotateWait {
                // Quiet only counts when it really stopped growing (its folder may be one we do not watch).
                if try read(file) > 0 { continue }
                try retire(file)
            } else if file.hasPendingEntry && now - file.lastActivity >= idle {
                try file.flushPendingEntry(emit)
            }
        }
        if (watcher == nil || !failedWatches.isEmpty) && now - lastPoll >= .seconds(2) {
            lastPoll = now
            try pollUnwatched()
        }
    }

    /// Outputs first, then checkpoints: a checkpoint never runs ahead of the data.
    func commit(durable: Bool) throws(SinkError) {
        if stalledSince != nil || checkpointsFrozen { return }  // nothing is saved while an output holds bytes back
        try pipeline.flush()
        let checkpoints = currentCheckpoints()
        let now = uptime
        let dueForSync = durable || (unsyncedChanges && now - lastSync >= .milliseconds(config.tail.syncIntervalMs))
        guard checkpoints != lastSaved || dueForSync, let store else { return }
        do {
            try store.save(checkpoints, durable: dueForSync)
            if checkpoints != lastSaved { unsyncedChanges = !dueForSync }
            if dueForSync { lastSync = now; unsyncedChanges = false }
            lastSaved = checkpoints
            if checkpointsFailing {
                checkpointsFailing = false
                events.report(.warning("checkpoints saved again"))
            }
        } catch {
            // Tried again after every batch; said once. Meanwhile a restart would read more again, not less.
            guard !checkpointsFailing else { return }
            checkpointsFailing = true
            events.report(.warning("\(error); exporting goes on, saving is retried after every batch (a restart now would export again what came since the last save)"))
        }
    }

    /// The last checkpoints saved (each written after its data was out), made durable: lines after them
    /// are read again next time, never lost.
    func saveDelivered() {
        guard unsyncedChanges, let store else { return }
        do {
            try store.save(lastSaved, durable: true)
            unsyncedChanges = false
        } catch {
            events.report(.warning("\(error)"))
        }
    }

    func currentCheckpoints() -> [Checkpoint] {
        (files.values.compactMap { $0.checkpoint() } + parked.values + retired.values.map(\.checkpoint)).sorted { ($0.path, $0.offset) < ($1.path, $1.offset) }
    }

    func shutDown() throws(SinkError) {
        if stalledSince != nil {
            do {
                try pipeline.flush()
                stalledSince = nil
            } catch where error.cause == .noSpace {
                // The checkpoints stay where the written data ends: these lines are read again next time.
                events.report(.warning("\(error.destination): still no space; stopping without writing the last bytes (they are read again on restart)"))
            }
        }
        try commit(durable: true)
        watcher?.stop(waiting: false)  // the thread ends within 1 s by itself; the caller exits or moves on
    }

    // MARK: emitting

    /// Where entries go: the pipeline while recording; nowhere while idle (the bytes are counted instead).
    func emit(_ entry: inout SpyEntry) throws(SinkError) {
        guard state == .recording else { return }
        try pipeline.process(&entry)
    }

    func reportGap(_ gap: GapReport) throws(SinkError) {
        events.report(.gap(path: gap.file.path, bytes: gap.bytes, reason: gap.reason.rawValue))
        try pipeline.processGap(gap)
    }

}
