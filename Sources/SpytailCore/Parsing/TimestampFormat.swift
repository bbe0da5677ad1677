/// How a timestamp is read into an instant (for `--since`/`--until`, ClickHouse's `time`, syslog). The
/// record always carries the timestamp text as it was written; spytail never invents or rewrites one.
public enum TimestampFormat: Sendable, Hashable {
    /// RFC 3339 / ISO 8601: `2026-11-20T10:00:00.123Z`, `2026-11-20 10:00:00,123+01:00`; no zone = UTC.
    case iso8601
    /// Seconds since the Unix epoch, optionally with a fraction: `1795168800.123`.
    case epoch
    /// Milliseconds since the Unix epoch: `1795168800123`.
    case epochMillis
    /// Microseconds since the Unix epoch.
    case epochMicros
    /// Nanoseconds since the Unix epoch.
    case epochNanos
    /// ISO 8601 text, or a number read as epoch seconds, milliseconds, microseconds or nanoseconds by its
    /// size (below 10^11, 10^14, 10^17, else nanoseconds): what JSON writers use (zap, pino, slog, logback).
    case auto
    /// strptime-style: `%d/%b/%Y:%H:%M:%S %z`.
    case pattern(StrptimePattern)
    /// Kept as text, not interpreted (entries then pass any time window).
    case none

    /// The names the config takes besides a `%` pattern.
    public static let names = ["iso8601", "epoch", "epochMillis", "epochMicros", "epochNanos", "auto", "none"]

    /// A named format or a strptime pattern (any text holding `%`).
    public init(name: String) throws(StrptimePattern.Problem) {
        switch name {
        case "iso8601": self = .iso8601
        case "epoch": self = .epoch
        case "epochMillis": self = .epochMillis
        case "epochMicros": self = .epochMicros
        case "epochNanos": self = .epochNanos
        case "auto": self = .auto
        case "none": self = .none
        default:
            guard name.contains("%") else {
                throw StrptimePattern.Problem(message: "'\(name)' is not one of \(Self.names.joined(separator: ", ")), nor a strptime pattern such as %d/%b/%Y:%H:%M:%S %z")
            }
            self = .pattern(try StrptimePattern(name))
        }
    }

    /// Nanoseconds since the Unix epoch, or nil when `bytes` is not in this format.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        switch self {
        case .iso8601: TimestampParser.iso8601(bytes)
        case .epoch: TimestampParser.decimalSeconds(bytes)
        case .epochMillis: TimestampParser.integer(bytes).flatMap { Self.scaled($0, 1_000_000) }
        case .epochMicros: TimestampParser.integer(bytes).flatMap { Self.scaled($0, 1_000) }
        case .epochNanos: TimestampParser.integer(bytes)
        case .auto: Self.automatic(bytes)
        case .pattern(let pattern): pattern.parse(bytes)
        case .none: nil
        }
    }

    static func automatic(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = bytes.first else { return nil }
        guard first &- UInt8(ascii: "0") < 10 else { return nil }
        if let instant = TimestampParser.iso8601(bytes) { return instant }
        let whole = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
        switch whole {
        case ...11: return TimestampParser.decimalSeconds(bytes)
        case 12...14: return TimestampParser.integer(UnsafeBufferPointer(rebasing: bytes[..<whole])).flatMap { scaled($0, 1_000_000) }
        case 15...17: return TimestampParser.integer(UnsafeBufferPointer(rebasing: bytes[..<whole])).flatMap { scaled($0, 1_000) }
        default: return TimestampParser.integer(UnsafeBufferPointer(rebasing: bytes[..<whole]))
        }
    }

    static func scaled(_ value: Int64, _ factor: Int64) -> Int64? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : product
    }

}
