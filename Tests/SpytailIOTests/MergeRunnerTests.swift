import FoundationEssentials
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// `scan --merge` over real files (plain and gzip): one stream in timestamp order, each file's own order kept.
struct MergeRunnerTests {
    static let config = #"{"parse": {"pattern": "^(?<timestamp>\\S+) (?<message>.*)$", "multiline": {"continuation": "^\\s"}}}"#

    struct Record: Decodable {
        let message: String
        let category: String
        let detail: String?
        let source: Source
        struct Source: Decodable { let path: String; let offset: Int64 }
    }

    func merge(_ paths: [String], window: TimeWindow? = nil) throws -> (records: [Record], report: ScanReport, stats: PipelineStats) {
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let writer = RecordingByteWriter()
        let runner = MergeRunner(config: compiled,
                                 outputs: [OpenOutput(formatter: JSONLinesFormatter(vocabulary: compiled.rules.vocabulary), writer: writer)],
                                 window: window, events: RecordingEventReporter())
        let report = try runner.run(files: paths.map { ($0, SourceFile.unnamed) })
        return (try writer.lines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }, report, runner.statistics)
    }

    @Test func entriesComeInTimeOrderAcrossFilesWithUntimedOnesAfterTheirPredecessorAndTiesInFileOrder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let a = dir.write("a.log", """
            - before any time in a
            2026-11-26T10:00:01Z a1
              a1's continuation
            2026-11-26T10:00:03Z a3
            - untimed after a3
            2026-11-26T10:00:05Z a5

            """)
        let b = dir.write("b.log.gz", Gzip.member("""
            2026-11-26T10:00:00Z b0
            2026-11-26T10:00:03Z b3
            2026-11-26T10:00:04.5Z b4
            2026-11-26T10:00:06Z b6

            """))
        let merged = try merge([a, b])
        #expect(merged.records.map(\.message) == ["before any time in a", "b0", "a1", "a3", "untimed after a3", "b3", "b4", "a5", "b6"])
        #expect(merged.records[2].detail == "  a1's continuation")
        #expect(merged.records.first { $0.message == "b4" }?.source.path == b)
        #expect(merged.report.filesRead == 2 && merged.report.errors.isEmpty)
        #expect(merged.stats.entries == 9)
        // The files in the other order: only ties change places.
        #expect(try merge([b, a]).records.map(\.message) == ["before any time in a", "b0", "a1", "b3", "a3", "untimed after a3", "b4", "a5", "b6"])
    }

    /// Many entries per file, more than a chunk holds: the merge refills each file as it goes.
    @Test func longFilesInterleaveEntryByEntry() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        func line(_ second: Int, _ name: String) -> String {
            "2026-11-26T\(String(format: "%02d:%02d:%02d", 10 + second / 3600, second / 60 % 60, second % 60))Z \(name) \(second) \(String(repeating: "x", count: 40))\n"
        }
        let even = dir.write("even.log", (0..<4000).map { line(2 * $0, "even") }.joined())
        let odd = dir.write("odd.log.gz", Gzip.member((0..<4000).map { line(2 * $0 + 1, "odd") }.joined()))
        let merged = try merge([even, odd])
        #expect(merged.records.count == 8000)
        #expect(merged.records.map { Int($0.message.split(separator: " ")[1])! } == Array(0..<8000))
    }

    @Test func theTimeWindowAppliesPerFileAndADamagedGzipLeavesAGapInItsPlace() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let a = dir.write("a.log", "2026-11-26T10:00:01Z a1\n2026-11-26T10:00:02Z a2\n2026-11-26T10:00:09Z a9\n")
        let whole = Gzip.member((0..<2000).map { "2026-11-26T10:00:0\($0 < 1000 ? 3 : 8)Z b\($0)\n" }.joined())
        let damaged = dir.write("b.log.gz", Array(whole[..<(whole.count / 2)]))
        let merged = try merge([a, damaged], window: TimeWindow(since: TimestampParser.iso8601("2026-11-26T10:00:02Z"), until: nil))
        let messages = merged.records.map(\.message)
        #expect(messages.first == "a2", "a1 is before the window")
        #expect(messages.last == "a9")
        let gap = try #require(merged.records.firstIndex { $0.category == "gap" })
        #expect(merged.records[gap].source.path == damaged)
        #expect(messages[1..<gap].allSatisfy { $0.hasPrefix("b") }, "the gap comes after what was read of the damaged file")
        #expect(merged.report.errors.map(\.path) == [damaged])
    }

    /// A gzip cut inside a line: the merge writes what `scan` writes, the cut last line included (its bytes are
    /// before the gap's offset), then the gap.
    @Test func aDamagedGzipGivesWhatScanGives() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member((0..<3000).map { "2026-11-26T10:00:0\($0 % 10)Z entry \($0) \(String(repeating: "z", count: 20))\n" }.joined())
        let damaged = dir.write("cut.log.gz", Array(whole[..<(whole.count * 2 / 3)]))
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let writer = RecordingByteWriter()
        let scan = ScanRunner(config: compiled, outputs: [OpenOutput(formatter: JSONLinesFormatter(vocabulary: compiled.rules.vocabulary), writer: writer)],
                              events: RecordingEventReporter(), workers: 0)
        _ = try scan.run(files: [(damaged, SourceFile.unnamed)])
        let merged = try merge([damaged])
        #expect(merged.records.count == writer.lines.count)
        #expect(merged.records.suffix(2).map(\.message) == writer.lines.suffix(2).map { try! JSONDecoder().decode(Record.self, from: Data($0.utf8)).message })
        #expect(merged.records.last?.category == "gap")
    }
}
