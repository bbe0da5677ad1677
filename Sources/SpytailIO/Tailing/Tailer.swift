import Glibc
import SpytailCore

/// The engine of `spytail run`: follows the configured files as they grow, rotate, get truncated or
/// deleted, and exports every line once through the config's pipeline.
///
/// One thread runs it. inotify's thread and the signal thread only post `RunEvent`s to `inbox`; each
/// batch of events ends in one reconcile per file touched (fstat + stat, `FileLifecycle`), reads to the
/// end, flushes the outputs, and then — never before — saves checkpoints (`Checkpointer`). Timers
/// (multiline idle flush, draining rotated files, checkpoint fsync, retrying a full output) are deadlines
/// of the loop's wait, not sleeps. The decisions live in the core's state machines (`FileLifecycle`,
/// `RunCondition`); this type carries out their actions.
public final class Tailer<C: Clock> where C.Duration == Duration {
    let clock: C
    let started: C.Instant
    let events: any EventReporter
    let checkpointer: Checkpointer
    public let inbox = BlockingQueue<RunEvent>()
    let makeFileEvents: FileEventsFactory
    /// The folders watched (through the file-event source made at `run()`), held and polled.
    var watches = DirectoryWatches(watcher: nil)
    /// The clock moves by hand (a test): wait for events or its moves, never for real time.
    let waitsOnClock: Bool

    /// The config file and what is made of it, swapped as one value on reload.
    var configuration: RunConfiguration
    /// Pipelines a reload replaced, kept until their files are synced (before the next durable save).
    var replacedPipelines: [EntryPipeline] = []
    var state: SpyState
    var condition = RunCondition()

    /// Every file tracked, open or not, each in its state (following, draining, parked, retired, gone).
    var tracked = TrackedFiles()
    /// Contents seen under each live path in this run.
    var seen = SeenContents()
    /// Per content: the epoch of its record ids and its earlier positions, saved with its checkpoints.
    var marks = ContentMarks()
    /// The rotated copies of the chains as last looked at without an arrival event, and their fingerprints.
    var lookedAtCopies: [String: (stamp: FileStamp, fingerprint: Fingerprint?)] = [:]
    /// The config file as last loaded, to notice a change without inotify.
    var configStamp: FileStamp?
    /// Live paths already reported as unreadable.
    var unreadable: Set<String> = []
    /// Whether this many more descriptors can be opened now (the process's limit, RLIMIT_NOFILE). A seam: the
    /// simulator makes them run out.
    var descriptorsFree: (Int) -> Bool = Syscall.canOpenDescriptors
    /// A seam for tests: an `open(2)` of a followed, drained or caught-up file, and a first-line look
    /// (`look(atFile:)`), fails with this (EMFILE: the descriptors the budget saw free were taken by the time
    /// of the open; `TailerDescriptorShortageTests`, and the simulator while its descriptors are out).
    var openFailure: (() -> Errno?)?
    /// Paths left unopened for want of a descriptor (live files, rotated copies), looked at again at `descriptorRetryAt`.
    var awaitingDescriptors: Set<String> = []
    var descriptorRetryAt: Duration?
    /// `startAt: end` live files left at the start for want of a descriptor, as they were then: once one is free each
    /// is followed from where it ended at the start (`followFromItsEndAtStart`), not from its beginning. Saved with the
    /// checkpoints: a restart before then keeps the first start's end.
    var endsAtStart: [String: SavedPositions.EndAtStart] = [:]
    /// Events taken from the inbox while waiting inside a catch-up, for the loop's next batch.
    var deferred: [RunEvent] = []
    /// A pause behind a full output ended inside a step (a catch-up's wait, a backlog's block): what that step
    /// did not get to while paused (a file followed then, not read) is looked at when the turn ends.
    var looksAgainAfterPause = false
    let buffer: UnsafeMutableRawBufferPointer
    /// Observers' window (the HTTP face), when there is one; and what it is shown.
    var publisher: TelemetryPublisher?
    /// Asked before a reloaded config is taken (the HTTP face rebinds); a reason refuses the reload.
    public var onReload: ((ConfigFile) -> String?)?
    /// A seam for tests, called on the loop's thread each time a copytruncate recovery has looked at the rotated
    /// copies (live path, what it saw), before it opens any: a test plays the rotator's next step here.
    public var onCopiesLooked: ((String, [CopyRecovery.Candidate]) -> Void)?
    /// A seam for tests, called on the loop's thread each time a resume has looked at a live path's chain and
    /// planned its reads (the path), before it opens any member: a test plays a rotation or a compressor's step here.
    var onChainLooked: ((String) -> Void)?
    /// A seam for the simulator, called on the loop's thread before a step waits for events (a copy's arrival,
    /// room in a full output): it plays what happens meanwhile (the clock moves, a compressor finishes).
    var onWait: (() -> Void)?
    /// Opens network outputs (nil: a config with one is refused when its outputs open).
    let remote: (any RemoteOutputOpener)?

    public init(configFile: ConfigFile, store: (any CheckpointStore)?, events: any EventReporter, clock: C,
                fileEvents: @escaping FileEventsFactory = InotifyWatcher.make, telemetry: RunTelemetry? = nil,
                remote: (any RemoteOutputOpener)? = nil) throws(SinkError) {
        self.clock = clock
        makeFileEvents = fileEvents
        if let stepped = clock as? any SteppedClock {
            let inbox = self.inbox
            stepped.onAdvance { inbox.push(.clockAdvanced) }
            waitsOnClock = true
        } else {
            waitsOnClock = false
        }
        started = clock.now
        self.events = events
        checkpointer = Checkpointer(store: store)
        self.remote = remote
        configuration = try RunConfiguration(configFile, remote: remote)
        state = configFile.config.state
        buffer = .allocate(byteCount: 256 * 1024, alignment: 64)
        publisher = telemetry.map(TelemetryPublisher.init)
        attachTap()
        let inbox = self.inbox
        telemetry?.onRequest { inbox.push(.request($0)) }
    }

    deinit { buffer.deallocate() }

    var configFile: ConfigFile { configuration.file }
    var pipeline: EntryPipeline { configuration.pipeline }
    var discovery: PathDiscovery { configuration.discovery }
    var settings: RunSettings { configuration.settings }
    var uptime: Duration { started.duration(to: clock.now) }

    /// The identity entries of content `fingerprint` read under `livePath` carry (in the content's epoch).
    func sourceFile(_ livePath: String, fingerprint: Fingerprint) -> SourceFile {
        configuration.sourceFile(livePath, fingerprint: fingerprint, epoch: marks.epoch(of: fingerprint))
    }

    // MARK: the loop

    /// Runs until SIGTERM or SIGINT; then flushes, saves checkpoints and returns. An output that fails
    /// otherwise than by filling up (its reader went away, an I/O error) ends the run with that error,
    /// after the checkpoints of what it had received are made durable.
    public func run() throws(SinkError) {
        open()
        do {
            try loop()
        } catch {
            abandon()
            throw error
        }
    }

    /// Before start-up: the file events (or polling without them), the config's stamp, the network outputs.
    func open() {
        let inbox = self.inbox
        do {
            watches = DirectoryWatches(watcher: try makeFileEvents { event in inbox.push(.watch(event)) })
        } catch {
            report(.inotifyUnavailable(reason: "\(error)", pollSeconds: settings.pollInterval.components.seconds))
        }
        configStamp = FileStamp(configFile.path)
        configuration.startDeliveries(after: nil, notify: deliveryNotice)
        reportOpenFileLimit(previous: nil)
    }

    /// Says when `tail.maxOpenFiles` does not fit under the process's descriptor limit (at start, and when a
    /// reload changes what fits).
    func reportOpenFileLimit(previous: RunSettings?) {
        guard settings.fitsFewerFilesThanConfigured, let processLimit = settings.processOpenFileLimit,
              previous.map({ $0.maxOpenFiles != settings.maxOpenFiles || $0.configuredMaxOpenFiles != settings.configuredMaxOpenFiles }) ?? true else { return }
        report(.openFileLimit(configured: settings.configuredMaxOpenFiles, processLimit: processLimit, files: settings.maxOpenFiles))
    }

    /// Ends a run that failed: the outputs stop and the checkpoints of what they had received are made durable.
    func abandon() {
        watches.watcher?.stop(waiting: false)
        configuration.stopDeliveries()
        if let problem = checkpointer.saveDelivered(now: uptime, syncOutputs: syncOutputs) { report(.checkpointSaveFailed(problem)) }
    }

    private func loop() throws(SinkError) {
        try begin()
        while try turn(nextBatch(waiting: waitsOnClock ? nil : nextTimeout())) == .goOn {}
        try shutDown()
    }

    /// Start-up, then the file events start.
    func begin() throws(SinkError) {
        do {
            try startUp()
        } catch where error.cause.pausesReading {
            stall(error)  // what start-up did not get to is picked up when the output drains
        }
        publishTelemetry(force: true)
        watches.watcher?.start()
    }

    /// The events to handle next: those a catch-up set aside, else what the inbox holds, waiting up to
    /// `timeout` (nil: until something comes) for the first.
    func nextBatch(waiting timeout: Duration?) -> [RunEvent] {
        if !deferred.isEmpty {
            defer { deferred = [] }
            return deferred + inbox.drain()
        }
        if case .some(.some(let first)) = inbox.pop(timeout: timeout) { return [first] + inbox.drain() }
        return []
    }

    /// One turn of the loop: the batch's events, the timers due, then outputs and checkpoints committed.
    func turn(_ batch: [RunEvent]) throws(SinkError) -> Outcome {
        let arrived = uptime
        do {
            if try handle(batch) == .stop { return .stop }
            try onTimers()
            if looksAgainAfterPause { try reconcileEverything() }
            try commit(durable: false)
            if telemetry != nil, batch.contains(where: \.isFileEvent) { telemetry?.exported(after: (uptime - arrived).seconds) }
        } catch where error.cause.pausesReading {
            stall(error)
        }
        publishTelemetry()
        return .goOn
    }

    enum Outcome { case goOn, stop }

    /// Where network outputs post their notices (their own threads).
    var deliveryNotice: @Sendable (DeliveryNotice) -> Void {
        let inbox = self.inbox
        return { inbox.push(.delivery($0)) }
    }

    func handle(_ events: [RunEvent]) throws(SinkError) -> Outcome {
        let batch = EventBatch(events, configPath: configFile.path)
        for control in batch.controls {
            switch control {
            case .toggleRecording: try toggleRecording()
            case .enter(let newState): try enter(newState)
            case .acknowledged: if condition.isStalled { try retryStalledOutputs(now: true) }
            case .report(let problem): report(problem)
            case .watchRefused(let directory, let errno): reportWatchFailure(directory, errno)
            case .rewatch: rewatch()
            }
        }
        if batch.stops { return .stop }
        if batch.reload { try reloadConfig() }
        // A folder came or went: once its files are looked at (a deleted pod's closed), what was seen there goes.
        defer { if batch.controls.contains(.rewatch) { forgetGoneFolders() } }
        guard state != .disabled else { return .goOn }
        if batch.everything {
            try reconcileEverything()
        } else {
            for directory in batch.directories { try reconcileDirectory(directory) }
            for path in batch.grown { try reconcilePath(path) }
        }
        for path in batch.arrived.sorted() { try catchUpUnseenRotation(path) }
        // A folder watched only now: rotated copies made there before the watch arrived untold.
        for directory in batch.watched.sorted() {
            for name in (Paths.names(in: directory) ?? []).sorted() { try catchUpUnseenRotation(Paths.join(directory, name)) }
        }
        return .goOn
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

    func report(_ problem: RunProblem) { events.report(.problem(problem)) }
}
