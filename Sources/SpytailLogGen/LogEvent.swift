/// One generated log event: a head line and, for some errors, continuation lines (a stack trace).
public struct LogEvent {
    public enum Level: String, CaseIterable { case debug = "DEBUG", info = "INFO", warn = "WARN", error = "ERROR" }

    public let level: Level
    public let heartbeat: Bool
    /// The `seq=N` of the head line; continuation line i carries `headSeq + i`.
    public let headSeq: Int
    /// Physical lines without their newline.
    public let lines: [String]

    /// The reference filter's decision: DEBUG and heartbeat messages are dropped, the rest kept.
    public var isKept: Bool { level != .debug && !heartbeat }
    public var continuationCount: Int { lines.count - 1 }
}
