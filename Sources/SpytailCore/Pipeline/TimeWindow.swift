/// `--since`/`--until`: keeps entries whose time is in [since, until). An entry without a readable
/// timestamp follows the decision made for the entry before it (it is usually part of the same event).
public struct TimeWindow: Sendable, Equatable {
    public var since: Int64?
    public var until: Int64?

    public init(since: Int64? = nil, until: Int64? = nil) {
        self.since = since
        self.until = until
    }

    public func contains(_ time: Int64) -> Bool {
        (since.map { time >= $0 } ?? true) && (until.map { time < $0 } ?? true)
    }
}
