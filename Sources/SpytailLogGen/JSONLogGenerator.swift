/// Deterministic JSON app logs (W3 of the benchmark, and the JSON tests): one object per line, about 240
/// bytes, shaped like what Python's JSON formatters, logback's JSON layout or Go's slog write:
/// `{"ts":"2026-11-20T10:00:00.123Z","level":"INFO","logger":"app.http","msg":"…","trace_id":"…",
/// "span_id":"…","http":{"method":"GET","path":"/api/todos/17","status":200,"duration_ms":12.5},
/// "user":{"id":1234,"name":"…"},"seq":17}`.
/// Levels DEBUG/INFO/WARNING/ERROR weighted 20/62/12/6 %; statuses 200/201/204/304/404/500/502/503 with ~4 %
/// 5xx; messages with quotes, backslashes, `\u` escapes and raw UTF-8; ~5 % of lines (all ERROR) carry an
/// `exc_info` string holding a multi-line traceback in `\n` escapes. `seq` is the line number.
public struct JSONLogGenerator: Sequence, IteratorProtocol {
    static let loggers = ["app.http", "app.db", "app.auth", "app.worker", "uvicorn.access", "app.cache"]
    static let methods = ["GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"]
    static let paths = ["/api/todos", "/api/todos/%", "/api/users/%", "/healthz", "/api/sessions", "/static/app.js"]
    static let statuses = [200, 200, 200, 200, 200, 200, 200, 201, 204, 304, 404, 404, 500, 502, 503]
    static let statusWeights = [60, 5, 5, 5, 5, 5, 0, 4, 3, 2, 2, 0, 2, 1, 1]
    static let names = ["Ana", "Bo", "Caf\\u00e9 Ana", "Jürgen", "Zoë", "O'Brien", "\\\"Q\\\"", "李雷"]
    static let phrases = ["request served", "cache miss for \\\"user:%\\\"", "slow query on todos (% ms)", "token refreshed",
                          "retrying after C:\\\\temp\\\\lock", "queued job #%", "ratelimit ✈ bucket %", "upstream said \\\"busy\\\""]

    public let totalLines: Int
    private var random: SplitMix64
    private var seq = 0
    private var micros = 123_456

    public init(lines: Int, seed: UInt64 = 42) {
        totalLines = lines
        random = SplitMix64(seed: seed)
    }

    /// One line (no newline) and whether the benchmark's reference filter keeps it: level WARNING or ERROR,
    /// or `http.status` >= 500.
    public mutating func next() -> (line: String, kept: Bool)? {
        guard seq < totalLines else { return nil }
        seq += 1
        micros += random.below(3000)
        let withTrace = random.chance(5)
        let level = withTrace ? "ERROR" : ["DEBUG", "INFO", "WARNING", "ERROR"][random.weighted([21, 66, 12, 1])]
        let status = Self.statuses[random.weighted(Self.statusWeights)]
        let method = random.pick(Self.methods)
        let path = random.pick(Self.paths).replacingPercent(with: random.within(1...9999))
        let message = random.pick(Self.phrases).replacingPercent(with: random.within(1...999))
        let duration = "\(random.within(0...2999)).\(random.within(0...9))"
        var line = #"{"ts":""# + timestamp() + #"","level":""# + level + #"","logger":""# + random.pick(Self.loggers)
        line += #"","msg":""# + message + #"","trace_id":""# + hex(32) + #"","span_id":""# + hex(16)
        line += #"","http":{"method":""# + method + #"","path":""# + path + #"","status":\#(status),"duration_ms":\#(duration)},"#
        line += #""user":{"id":\#(random.within(1...99_999))"# + (random.chance(30) ? #","name":""# + random.pick(Self.names) + #"""# : "") + "}"
        if withTrace {
            line += #","exc_info":"Traceback (most recent call last):\n  File \"/app/handlers.py\", line \#(random.within(10...900))\nValueError: invalid literal for int() with base 10: 'x\#(seq)'""#
        }
        line += #","seq":\#(seq)}"#
        return (line, level == "WARNING" || level == "ERROR" || status >= 500)
    }

    private mutating func hex(_ digits: Int) -> String {
        var out = ""
        while out.count < digits {
            let word = String(random.next(), radix: 16)
            out += String(repeating: "0", count: 16 - word.count) + word
        }
        return String(out.prefix(digits))
    }

    private func timestamp() -> String {
        let seconds = LogGenerator.baseEpoch + micros / 1_000_000
        return CivilTime(epochSeconds: seconds).iso8601 + "." + decimal(micros % 1_000_000 / 1000, width: 3) + "Z"
    }
}

/// Writes a JSON log file and says how many lines the reference filter keeps.
public enum JSONLogWriter {
    public struct Counts: Sendable {
        public var lines = 0
        public var bytes = 0
        public var kept = 0
        public var json: String { #"{"lines": \#(lines), "bytes": \#(bytes), "kept": \#(kept)}"# }
    }

    public static func writeFile(lines: Int, seed: UInt64 = 42, to path: String) throws -> Counts {
        let file = try OutputFile(path: path)
        var counts = Counts()
        var chunk = ""
        for (line, kept) in JSONLogGenerator(lines: lines, seed: seed) {
            chunk += line
            chunk += "\n"
            counts.lines += 1
            counts.bytes += line.utf8.count + 1
            if kept { counts.kept += 1 }
            if chunk.utf8.count > 1 << 16 {
                try file.write(chunk)
                chunk = ""
            }
        }
        try file.write(chunk)
        try file.close()
        return counts
    }
}
