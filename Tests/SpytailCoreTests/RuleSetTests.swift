import Testing
@testable import SpytailCore
import SpytailTestSupport

/// Categories (first match wins, else default), tags (every match), pattern parts.
struct RuleSetTests {
    struct Case: Sendable {
        let line: String, category: String, tags: [String], timestamp: String?, message: String
    }

    static let cases: [Case] = [
        .init(line: "2026-11-20T10:00:00Z ERROR [tca] Store: failed", category: "error", tags: ["tca"],
              timestamp: "2026-11-20T10:00:00Z", message: "Store: failed"),
        .init(line: "2026-11-20T10:00:00Z FATAL boom", category: "error", tags: [], timestamp: "2026-11-20T10:00:00Z", message: "boom"),
        .init(line: "t DEBUG [db] [tca] Store: x dur_ms=1234", category: "debug", tags: ["tca", "db", "slow"], timestamp: "t",
              message: "Store: x dur_ms=1234"),
        .init(line: "t INFO Store: action", category: "store", tags: [], timestamp: "t", message: "Store: action"),
        .init(line: "t INFO plain dur_ms=12", category: "info", tags: [], timestamp: "t", message: "plain dur_ms=12"),
        // No pattern match: the whole line is the message, no timestamp is invented, field rules do not match.
        .init(line: "not a log line [tca] dur_ms=99999", category: "info", tags: ["slow"], timestamp: nil,
              message: "not a log line [tca] dur_ms=99999"),
    ]

    @Test(arguments: cases.map { ($0.line, $0) })
    func classifies(_ line: String, _ c: Case) throws {
        let sink = RecordingEntrySink()
        let config = try Fixtures.compiled()
        let pipeline = EntryPipeline(config: config, sinks: [sink])
        try Fixtures.run(c.line + "\n", pipeline: pipeline)
        let entry = try #require(sink.entries.first)
        let vocabulary = config.rules.vocabulary
        #expect(vocabulary.categories[entry.category].name == c.category)
        #expect(entry.tags.indices.map { vocabulary.tags[$0].name } == c.tags)
        #expect(entry.timestampString == c.timestamp)
        #expect(entry.messageString == c.message)
    }

    @Test func fieldsAreTheOtherNamedGroups() throws {
        let sink = RecordingEntrySink()
        let config = try Fixtures.compiled()
        try Fixtures.run("t WARN [db] hi\n", pipeline: EntryPipeline(config: config, sinks: [sink]))
        let entry = try #require(sink.entries.first)
        let fields = entry.fields.map { (config.rules.vocabulary.fieldNames[$0.name], entry.string($0.range)) }
        #expect(fields.map(\.0) == ["level", "tags"])
        #expect(fields.map(\.1) == ["WARN", "[db] "])
    }
}

/// The trailing `(?<name>.*)$` rewrite must give the same parts as the full pattern.
struct LinePatternTests {
    @Test(arguments: [
        (#"^(?<timestamp>\S+) (?<level>[A-Z]+) (?<message>.*)$"#, "message"),
        (#"^(?<a>x)(?<rest_1>.*)$"#, "rest_1"),
    ])
    func splitsTrailingGroups(_ pattern: String, _ name: String) {
        #expect(LinePattern.splitTail(pattern)?.name == name)
    }

    @Test(arguments: [
        #"^(?<m>.*)"#,                 // no $
        #"^a|(?<m>.*)$"#,              // top-level alternation
        #"(?s)^(?<m>.*)$"#,            // dot matches newline
        #"^(?<m>.+)$"#,                // not .*
        #"^x\(?<m>.*)$"#,              // escaped parenthesis: no group
    ])
    func leavesOtherPatternsAlone(_ pattern: String) {
        #expect(LinePattern.splitTail(pattern) == nil)
    }

    @Test(arguments: ["2026-11-20T10:00:00Z INFO [tca] hello world", "t WARN ", "no match here", "t ERROR é✈ \u{1}x"])
    func rewrittenAndFullPatternsAgree(_ line: String) throws {
        let pattern = #"^(?<timestamp>\S+) (?<level>[A-Z]+) (?<tags>(?:\[[a-z]+\] )*)(?<message>.*)$"#
        let fast = try LinePattern(pattern)
        #expect(fast.tailGroup != nil)
        let full = try Regex(pattern)
        var entry = SpyEntry(file: Fixtures.file)
        entry.text = Array(line.utf8)
        entry.headLength = entry.text.count
        let matched = fast.apply(to: &entry)
        let fullMatched = entry.text.withUnsafeBufferPointer { full.matches($0) }
        #expect(matched == fullMatched)
        if matched {
            #expect(entry.timestamp == full.group(1))
            #expect(entry.message == full.group(4))
            #expect(entry.fields.map(\.range) == [full.group(2), full.group(3)].compactMap { $0 })
        }
    }
}
