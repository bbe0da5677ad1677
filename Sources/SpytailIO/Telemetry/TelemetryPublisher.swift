import SpytailCore

/// What the run keeps for its observers between publications: the counts of pipelines gone by (a
/// reload's, a backlog's), each live path's source name, and when the counters were last published. The
/// counters and the files table go out at most every `interval`, at once on a state change (`POST
/// /api/state` waits for it) or when forced; between them the loop only beats.
struct TelemetryPublisher {
    static let interval: Duration = .milliseconds(250)
    static let heartbeat: Duration = .seconds(2)

    let telemetry: RunTelemetry
    private(set) var tallies = RunTallies()
    private var sourceNames: [String: String] = [:]
    private var lastPublish: Duration?
    private var publishedState: SpyState?

    init(_ telemetry: RunTelemetry) { self.telemetry = telemetry }

    /// Whether the counters are due at `now` in `state`; when they are, they count as published then.
    mutating func due(at now: Duration, state: SpyState, force: Bool) -> Bool {
        let elapsed = lastPublish.map { now - $0 >= Self.interval } ?? true
        guard force || state != publishedState || elapsed else { return false }
        lastPublish = now
        publishedState = state
        return true
    }

    /// The source a live path belongs to, found once by `lookUp` and remembered (bounded).
    mutating func sourceName(of path: String, lookUp: () -> String) -> String {
        if let name = sourceNames[path] { return name }
        let name = lookUp()
        if sourceNames.count > 100_000 { sourceNames = [:] }
        sourceNames[path] = name
        return name
    }

    mutating func countRead(source: String, bytes: Int64, lines: Int) {
        tallies.read(source: source, bytes: bytes, lines: lines)
    }

    /// A pipeline's counts join the totals (it is replaced, or a backlog's runner finished).
    mutating func add(_ stats: PipelineStats, vocabulary: Vocabulary) {
        tallies.add(stats, vocabulary: vocabulary)
    }
}
