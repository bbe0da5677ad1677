/// Deterministic synthetic application logs, the workload of the tests and the benchmark.
///
/// A head line is `2026-11-20T10:00:00.123456Z INFO [tca] [db] Store: action received id=… seq=17 …`:
/// levels DEBUG/INFO/WARN/ERROR weighted 30/50/15/5 %, 0–2 distinct bracketed tags from {tca, todos,
/// network, db}, a message of 40–300 bytes of UTF-8 (some with quotes, backslashes and non-ASCII text),
/// ~2 % heartbeat messages (no other message contains "heartbeat"), and ~1 % of ERROR heads followed by
/// 3–8 continuation lines starting with a tab or four spaces. Every physical line carries a unique `seq=N`
/// equal to its line number in the oldest-first stream, which is what `OutputVerifier` checks.
public struct LogGenerator: Sequence, IteratorProtocol {
    static let baseEpoch = 1_795_168_800  // 2026-11-20T10:00:00Z
    static let tags = ["tca", "todos", "network", "db"]
    static let actions = ["addTodo", "toggleTodo", "deleteTodo", "editTitle", "syncRequested", "syncFinished",
                          "filterChanged", "binding(.set)", "onAppear", "timerTick"]
    static let methods = ["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH"]
    static let tables = ["todos", "users", "sessions", "tags", "attachments"]
    static let titles = ["Buy milk", "Call mom", "Fix \"flaky\" test", "Write report", "Caf\u{e9} with Ana", "Pay rent",
                         "Book flights \u{2708}", "Review PR #42", "C:\\temp\\notes.txt", "Read \u{300c}Dune\u{300d}"]
    static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
                        "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"]
    static let frames = ["App.Store.reduce(Store.swift:%)", "App.Effect.run(Effect.swift:%)",
                         "App.TodosFeature.body(TodosFeature.swift:%)", "Network.Client.send(Client.swift:%)",
                         "DB.Connection.execute(Connection.swift:%)", "Swift.Task.run(Task.swift:%)"]
    static let errors = ["DecodingError.keyNotFound", "URLError.timedOut", "SQLiteError.busy", "CancellationError",
                         "NSPOSIXErrorDomain code=54", "HTTPError status=503"]

    public let totalLines: Int
    private var random: SplitMix64
    private var seq = 0
    private var micros = 123_456

    /// Events for exactly `lines` physical lines.
    public init(lines: Int, seed: UInt64 = 42) {
        totalLines = lines
        random = SplitMix64(seed: seed)
    }

    public mutating func next() -> LogEvent? {
        guard seq < totalLines else { return nil }
        seq += 1
        micros += random.below(3000)
        let level = LogEvent.Level.allCases[random.weighted([30, 50, 15, 5])]
        let tags = pickTags(count: [0, 1, 2][random.weighted([40, 40, 20])])
        let heartbeat = random.chance(2)
        let text = heartbeat ? "heartbeat ok node=n\(random.within(1...8)) uptime_s=\(random.within(1...999_999))"
            : message(level: level, tags: tags)
        let body = pad("\(text) seq=\(seq)", to: random.triangular(40, 300, 70))
        let head = "\(timestamp()) \(level.rawValue) \(tags.map { "[\($0)] " }.joined())\(body)"
        let headSeq = seq
        var lines = [head]
        if level == .error && random.chance(1) {
            for _ in 0..<random.within(3...8) where seq < totalLines {
                seq += 1
                let frame = random.pick(Self.frames).replacingPercent(with: random.within(10...899))
                lines.append("\(random.chance(50) ? "\t" : "    ")at \(frame) seq=\(seq)")
            }
        }
        return LogEvent(level: level, heartbeat: heartbeat, headSeq: headSeq, lines: lines)
    }

    private mutating func pickTags(count: Int) -> [String] {
        var pool = Self.tags, chosen: [String] = []
        for _ in 0..<count { chosen.append(pool.remove(at: random.below(pool.count))) }
        return chosen
    }

    private mutating func message(level: LogEvent.Level, tags: [String]) -> String {
        let id = random.within(1...99_999), user = random.within(1...499)
        if level == .error { return "\(random.pick(Self.actions)) failed id=\(id) user=u\(user) error=\(random.pick(Self.errors))" }
        switch tags.contains("tca") ? 0 : random.below(6) {
        case 0: return "Store: action received id=\(id) user=u\(user) action=\(random.pick(Self.actions))"
        case 1: return "HTTP \(random.pick(Self.methods)) /api/todos/\(id) status=\(random.pick([200, 200, 200, 201, 204, 304, 404, 500]))"
        case 2: return "db query table=\(random.pick(Self.tables)) rows=\(random.below(2000))"
        case 3: return "user u\(user) updated todo \(id) title=\"\(random.pick(Self.titles))\""
        case 4: return "cache miss key=todo:\(id)"
        default: return "sync progress \(random.below(100))/100"
        }
    }

    /// Appends key=value pairs until the message has at least `target` UTF-8 bytes, never more than 300.
    private mutating func pad(_ start: String, to target: Int) -> String {
        var message = start
        var size = message.utf8.count
        while size < target {
            var piece: String
            switch random.below(7) {
            case 0: piece = " req=\(hex(random.next() & 0xFFFF_FFFF, width: 8))"
            case 1: piece = " trace=\(hex(random.next(), width: 16))"
            case 2: piece = " dur_ms=\(random.within(1...4999))"
            case 3: piece = " bytes=\(random.below(1 << 20))"
            case 4: piece = " path=/api/v1/\(random.pick(Self.tables))/\(random.below(100_000))"
            case 5: piece = " note=\"\(random.pick(Self.words)) \(random.pick(Self.words))\""
            default: piece = " \(random.pick(Self.words))=\(random.pick(Self.words))"
            }
            if size + piece.utf8.count > 300 {
                if size >= 40 { break }
                piece = String(piece.prefix(300 - size))  // pieces are ASCII
            }
            message += piece
            size += piece.utf8.count
        }
        return message
    }

    private func timestamp() -> String {
        let seconds = Self.baseEpoch + micros / 1_000_000
        return "\(CivilTime(epochSeconds: seconds).iso8601).\(decimal(micros % 1_000_000, width: 6))Z"
    }
}

func hex(_ value: UInt64, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

func decimal(_ value: Int, width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

extension String {
    func replacingPercent(with number: Int) -> String {
        guard let index = firstIndex(of: "%") else { return self }
        return String(self[..<index]) + String(number) + String(self[self.index(after: index)...])
    }
}
