import Glibc
import SpytailCore

/// What the run shows its observers (`RunTelemetry`): recent entries after every batch, the counters and the
/// files table at most every `TelemetryPublisher.interval`, a heartbeat while it turns over (also inside a backlog).
extension Tailer {
    var telemetry: RunTelemetry? { publisher?.telemetry }

    /// Gives the (new) pipeline a tap for viewers, while there can be viewers (the HTTP face listens).
    func attachTap() {
        guard let telemetry else { return }
        telemetry.publish(context: ViewContext(configFile.compiled))
        pipeline.tap = telemetry.collectsEntries
            ? RecentTap(vocabulary: configFile.compiled.rules.vocabulary, capacity: telemetry.recent.capacity) : nil
    }

    /// The recent-entries capacity a backlog's workers tap with, or nil when nobody can look.
    var backlogTapCapacity: Int? {
        guard let telemetry, telemetry.collectsEntries else { return nil }
        return telemetry.recent.capacity
    }

    /// Counts what was read from `path` under its source's name (looked up once a path).
    func countRead(_ path: String, bytes: Int64, lines: Int) {
        guard publisher != nil else { return }
        let configuration = self.configuration
        guard let source = publisher?.sourceName(of: path, lookUp: {
            configuration.source(ofLive: path)?.name ?? configuration.sources.first?.name ?? "-"
        }) else { return }
        publisher?.countRead(source: source, bytes: bytes, lines: lines)
    }

    /// A backlog's runner counted its own entries: they join the totals.
    func countBacklog(_ stats: PipelineStats) {
        publisher?.add(stats, vocabulary: configFile.compiled.rules.vocabulary)
    }

    /// The pipeline is about to be replaced: its counts join the totals.
    func retirePipelineCounts() {
        countBacklog(pipeline.statistics)
    }

    /// After a batch's outputs were flushed: hands recent entries over; the rest when due.
    func publishTelemetry(force: Bool = false) {
        guard let telemetry else { return }
        if let tap = pipeline.tap {
            let (batch, dropped) = tap.take()
            telemetry.recent.append(batch, dropped: dropped)
        }
        if telemetry.collectsEntries != (pipeline.tap != nil) { attachTap() }  // the face started or stopped
        let now = uptime
        guard publisher?.due(at: now, state: state, force: force) == true, let tallies = publisher?.tallies else {
            telemetry.beat()
            return
        }
        telemetry.recent.nudge()  // viewers look at the state and keep their connection alive
        let totals = tallies.adding(pipeline.statistics, vocabulary: configFile.compiled.rules.vocabulary)
        let rows = fileRows()
        let (state, watches, open) = (self.state, watches.wanted.count, tracked.openCount)
        let outputNames = configuration.outputs.map { $0.writer.name }
        let acknowledged = configuration.outputs.map { $0.delivery.map { (taken: $0.ledger.taken, acknowledged: $0.ledger.acknowledged) } }
        let saved = checkpointer.lastSavedAt.map { RunTelemetry.monotonicSeconds() - (now - $0).seconds }
        let path = configFile.path
        telemetry.publish { s in
            s.state = state
            s.started = true
            s.linesRead = totals.linesRead
            s.bytesRead = totals.bytesRead
            s.entriesByCategory = totals.entriesByCategory
            s.parseErrorsBySource = totals.parseErrorsBySource
            s.excludedByFilter = totals.excludedByFilter
            s.writtenByOutput = totals.writtenByOutput
            s.outputNames = outputNames
            s.deliveryByOutput = acknowledged
            s.filesOpen = open
            s.watches = watches
            s.files = rows
            s.checkpointSavedAt = saved
            s.configPath = path
        }
    }

    /// The open files and the parked ones (retired and gone positions are not shown).
    func fileRows() -> [RunSnapshot.FileRow] {
        var rows: [RunSnapshot.FileRow] = []
        var lives: [String: stat?] = [:]
        for entry in tracked.all {
            switch entry {
            case .open(let file):
                let size = (try? Syscall.fstat(file.descriptor)).map { Int64($0.st_size) } ?? file.resumeOffset
                let following = entry.state == .following
                rows.append(.init(path: following ? file.followPath : "\(file.followPath) (rotated)",
                                  offset: file.resumeOffset, size: size, status: following ? "following" : "draining"))
            case .parked(let checkpoint, _):
                let path = checkpoint.path
                if lives[path] == nil { lives[path] = .some(Syscall.stat(path)) }
                let live = lives[path]!
                // A rotated copy parked under the path (disabled while it was drained): its size is not looked up.
                let isLiveFile = live.map { FileIdentity($0) == checkpoint.identity } ?? false
                rows.append(.init(path: isLiveFile ? path : "\(path) (rotated)", offset: checkpoint.offset,
                                  size: isLiveFile ? live.map { Int64($0.st_size) } ?? 0 : checkpoint.offset, status: "parked"))
            case .retired, .gone:
                break
            }
        }
        return rows.sorted { $0.path < $1.path }
    }

    /// Reading paused on a full output (or not any more): `/readyz` says so.
    func publishStall(_ error: SinkError?) {
        telemetry?.publish { $0.stalledOn = error.map { "\($0); retrying" } }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
