import Testing
@testable import SpytailCore
import SpytailTestSupport

/// Multiline assembly, filters (exclude), outputs' `where` (keep), time windows, counters.
struct PipelineTests {
    static let log = """
        2026-11-20T10:00:00Z INFO [tca] Store: heartbeat 1
        2026-11-20T10:00:01Z ERROR [db] query failed
        \tat DB.execute(Connection.swift:12)
            at App.run(App.swift:3)
        2026-11-20T10:00:02Z DEBUG noise
        2026-11-20T10:00:03Z INFO [tca] Store: tick
        2026-11-20T10:00:04Z INFO node heartbeat ok
        2026-11-20T10:00:05Z WARN [tca] Store: action received
        """

    func run(filters: String = "[]", outputs: String = #"[{"type": "stdout"}]"#, sinks count: Int = 1,
             window: TimeWindow? = nil) throws -> ([RecordingEntrySink], PipelineStats) {
        let sinks = (0..<count).map { _ in RecordingEntrySink() }
        let pipeline = EntryPipeline(config: try Fixtures.compiled(filters: filters, outputs: outputs), sinks: sinks, window: window)
        try Fixtures.run(Self.log, pipeline: pipeline)
        return (sinks, pipeline.statistics)
    }

    @Test func joinsContinuationLinesIntoDetail() throws {
        let (sinks, stats) = try run()
        let error = try #require(sinks[0].entries.first { $0.messageString == "query failed" })
        #expect(error.detailString == "\tat DB.execute(Connection.swift:12)\n    at App.run(App.swift:3)")
        #expect(error.lineCount == 3)
        #expect(stats.entries == 6)
        #expect(sinks[0].entries.allSatisfy { $0.messageString != "\tat DB.execute(Connection.swift:12)" })
        // Head lines are those not starting with white space; their byte offsets, counted here independently.
        var offset: Int64 = 0
        var heads: [Int64] = []
        for line in Self.log.split(separator: "\n", omittingEmptySubsequences: false) {
            if !(line.first?.isWhitespace ?? false) { heads.append(offset) }
            offset += Int64(line.utf8.count + 1)
        }
        #expect(sinks[0].entries.map(\.offset) == heads)
    }

    /// (filter JSON, messages kept)
    static let filterCases: [(String, [String])] = [
        (#"[{"exclude": {"category": "debug"}}]"#,
         ["Store: heartbeat 1", "query failed", "Store: tick", "node heartbeat ok", "Store: action received"]),
        (#"[{"exclude": {"contains": "heartbeat"}}]"#, ["query failed", "noise", "Store: tick", "Store: action received"]),
        (#"[{"exclude": {"prefix": "Store:"}}]"#, ["query failed", "noise", "node heartbeat ok"]),
        (#"[{"exclude": {"tag": "tca"}}]"#, ["query failed", "noise", "node heartbeat ok"]),
        (#"[{"exclude": {"integration": "tca"}}]"#, ["query failed", "noise", "node heartbeat ok", "Store: action received"]),
    ]

    @Test(arguments: filterCases)
    func filtersExcludeWhatTheyMatch(_ filters: String, _ kept: [String]) throws {
        let (sinks, stats) = try run(filters: filters)
        #expect(sinks[0].messages == kept)
        #expect(stats.excludedByFilter == [6 - kept.count])
        #expect(stats.writtenByOutput == [kept.count])
    }

    @Test func theFirstExcludingFilterIsCounted() throws {
        let (_, stats) = try run(filters: #"[{"exclude": {"tag": "tca"}}, {"exclude": {"contains": "heartbeat"}}]"#)
        #expect(stats.excludedByFilter == [3, 1])
    }

    @Test func eachOutputKeepsWhatItsWhereMatches() throws {
        let outputs = #"[{"type": "stdout"}, {"type": "file", "path": "e.jsonl", "where": {"category": "error"}}, {"type": "file", "path": "t.jsonl", "where": {"tag": "tca"}}]"#
        let (sinks, stats) = try run(filters: #"[{"exclude": {"category": "debug"}}]"#, outputs: outputs, sinks: 3)
        #expect(sinks[0].entries.count == 5)
        #expect(sinks[1].messages == ["query failed"])
        #expect(sinks[2].messages == ["Store: heartbeat 1", "Store: tick", "Store: action received"])
        #expect(stats.writtenByOutput == [5, 1, 3])
        #expect(sinks.allSatisfy { $0.flushCallCount == 1 })
    }

    @Test func timeWindowKeepsHalfOpenRange() throws {
        let window = TimeWindow(since: TimestampParser.iso8601("2026-11-20T10:00:01Z"), until: TimestampParser.iso8601("2026-11-20T10:00:04Z"))
        let (sinks, stats) = try run(window: window)
        #expect(sinks[0].messages == ["query failed", "noise", "Store: tick"])
        #expect(stats.outsideWindow == 3)
    }

    @Test func aFailingSinkStopsThePipelineWithItsError() throws {
        let sink = RecordingEntrySink()
        sink.consumeError = SinkError(destination: "x", cause: .noSpace)
        let pipeline = EntryPipeline(config: try Fixtures.compiled(), sinks: [sink])
        #expect(throws: SinkError(destination: "x", cause: .noSpace)) { try Fixtures.run(Self.log, pipeline: pipeline) }
        #expect(sink.consumeCallCount == 1)
    }
}
