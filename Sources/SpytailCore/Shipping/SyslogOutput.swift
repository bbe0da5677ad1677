/// A `syslog` output: RFC 5424 messages to a central rsyslog/syslog-ng over RELP (acknowledged), TCP
/// (RFC 6587 octet counting) or UDP (one datagram each, fire and forget).
public struct SyslogOutput: BatchedDestination, Equatable {
    public enum Transport: String, Sendable, CaseIterable { case relp, tcp, udp }

    /// `host:port` (`[v6]:port` for IPv6 literals).
    public var host: String
    public var port: Int
    public var transport = Transport.relp
    public var appName = "spytail"
    /// Empty: this machine's name, when the output opens.
    public var hostname = ""
    public var facility = SyslogCodes.facilities["local0"]!
    /// Severity by category name; `default` for the others.
    public var severities: [String: Int] = [:]
    public var defaultSeverity = SyslogCodes.severities["info"]!
    /// Records sent per batch (RELP: frames in flight before their acknowledgements are awaited).
    public var batchMaxRecords = 1_000
    public var batchMaxMs = 200
    public var bufferMaxRecords = 100_000
    public var shutdownTimeoutMs = 10_000

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `syslog relp 127.0.0.1:2514` in messages.
    public var name: String { "syslog \(transport.rawValue) \(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// `host:port` or `[v6]:port` → (host, port); nil when not so.
    public static func parseAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else { return nil }
        return (String(host), port)
    }
}

/// The names RFC 5424 gives facilities and severities.
public enum SyslogCodes {
    public static let facilities: [String: Int] = [
        "kern": 0, "user": 1, "mail": 2, "daemon": 3, "auth": 4, "syslog": 5, "lpr": 6, "news": 7, "uucp": 8, "cron": 9,
        "authpriv": 10, "ftp": 11, "local0": 16, "local1": 17, "local2": 18, "local3": 19, "local4": 20, "local5": 21,
        "local6": 22, "local7": 23,
    ]
    public static let severities: [String: Int] = [
        "emerg": 0, "alert": 1, "crit": 2, "err": 3, "warning": 4, "notice": 5, "info": 6, "debug": 7,
    ]
}
