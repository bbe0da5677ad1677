/// What a generated workload holds, and the record counts the reference filter must give on it.
public struct GeneratedCounts: Equatable {
    public struct File: Equatable {
        public let path: String
        public let lines: Int
        /// Uncompressed bytes.
        public let bytes: Int
    }

    public var lines = 0
    public var events = 0
    public var continuationLines = 0
    public var heartbeats = 0
    public var levels: [String: Int] = [:]
    /// Records with continuation lines joined to their head (what spytail with a multiline rule writes).
    public var keptJoin = 0
    /// Records when every physical line is its own record and unparsed lines are kept.
    public var keptNoJoin = 0
    /// Records when unparsed (continuation) lines are dropped.
    public var keptHeadsOnly = 0
    public var bytes = 0
    /// Files in reading order, oldest first.
    public var files: [File] = []

    public init() {}

    mutating func count(_ event: LogEvent) {
        events += 1
        lines += event.lines.count
        continuationLines += event.continuationCount
        heartbeats += event.heartbeat ? 1 : 0
        levels[event.level.rawValue, default: 0] += 1
        if event.isKept { keptJoin += 1; keptHeadsOnly += 1; keptNoJoin += 1 }
        keptNoJoin += event.continuationCount
    }

    /// The counts as one JSON object (keys in a fixed order, so the text is deterministic too).
    public var json: String {
        let levelText = LogEvent.Level.allCases.map { "\"\($0.rawValue)\": \(levels[$0.rawValue] ?? 0)" }.joined(separator: ", ")
        let fileText = files.map { "{\"path\": \(quoted($0.path)), \"lines\": \($0.lines), \"bytes\": \($0.bytes)}" }
            .joined(separator: ", ")
        return """
            {"lines": \(lines), "events": \(events), "continuation_lines": \(continuationLines), "heartbeats": \(heartbeats), \
            "levels": {\(levelText)}, "kept_join": \(keptJoin), "kept_no_join": \(keptNoJoin), \
            "kept_heads_only": \(keptHeadsOnly), "bytes": \(bytes), "files": [\(fileText)]}
            """
    }
}

func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += "\\u" + hex(UInt64(scalar.value), width: 4)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
