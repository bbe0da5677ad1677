/// How the `timestamp` group is read into an instant (for `--since`/`--until`). The record always
/// carries the timestamp text as it was written; spytail never invents or rewrites one.
public enum TimestampFormat: String, Sendable, CaseIterable {
    /// RFC 3339 / ISO 8601: `2026-11-20T10:00:00.123Z`, `2026-11-20 10:00:00,123+01:00`; no zone = UTC.
    case iso8601
    /// Seconds since the Unix epoch, optionally with a fraction: `1795168800.123`.
    case epoch
    /// Milliseconds since the Unix epoch: `1795168800123`.
    case epochMillis
    /// Kept as text, not interpreted (entries then pass any time window).
    case none

    /// Nanoseconds since the Unix epoch, or nil when `bytes` is not in this format.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        switch self {
        case .iso8601: TimestampParser.iso8601(bytes)
        case .epoch: TimestampParser.decimalSeconds(bytes)
        case .epochMillis: TimestampParser.integer(bytes).map { $0 &* 1_000_000 }
        case .none: nil
        }
    }
}
