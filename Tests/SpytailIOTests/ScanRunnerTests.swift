import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// The scan runner over real files: order, ids across compression, damage in the middle of a chain,
/// read-buffer boundaries.
struct ScanRunnerTests {
    static let config = #"{"parse": {"multiline": {"continuation": "^\\s"}}}"#

    func scan(_ paths: [String], chunkSize: Int = 256 * 1024) throws -> (RecordingEntrySink, RecordingEventReporter, ScanReport) {
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let sink = RecordingEntrySink()
        let events = RecordingEventReporter()
        let runner = ScanRunner(pipeline: EntryPipeline(config: compiled, sinks: [sink]), events: events, chunkSize: chunkSize)
        return (sink, events, try runner.run(paths: paths))
    }

    @Test func idsAreTheSameForPlainAndCompressedCopies() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = "first line\nsecond\n  continued\nthird\n"
        let plain = dir.write("app.log.1", text)
        let gz = dir.write("app.log.1.gz", Gzip.member(Array(text.utf8)))
        let (fromPlain, _, _) = try scan([plain])
        let (fromGzip, _, _) = try scan([gz])
        #expect(fromPlain.entries.map(\.id) == fromGzip.entries.map(\.id))
        #expect(fromPlain.entries.map(\.offset) == [0, 11, 30])
        #expect(fromPlain.entries.map(\.file.path) == [plain, plain, plain])
        #expect(Set(fromPlain.entries.map(\.id)).count == 3)
    }

    @Test func aDamagedFileInTheMiddleIsReportedAndTheRestStillFlows() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member((0..<3000).map { "old \($0)\n" }.joined())
        let oldest = dir.write("app.log.3.gz", Gzip.member("oldest\n"))
        let damaged = dir.write("app.log.2.gz", Array(whole[..<(whole.count / 2)]))
        let newer = dir.write("app.log.1", "newer\n")
        let (sink, events, report) = try scan([oldest, damaged, newer])
        let messages = sink.messages
        #expect(messages.first == "oldest")
        #expect(messages.last == "newer")
        // Every line before the damage, in order; the last one may be cut where the data ends.
        let middle = Array(messages.dropFirst().dropLast())
        #expect(middle.dropLast().enumerated().allSatisfy { $0.element == "old \($0.offset)" })
        #expect("old \(middle.count - 1)".hasPrefix(middle.last ?? "-"))
        #expect(messages.count > 100)
        #expect(report.errors.count == 1)
        #expect(report.errors.first?.path == damaged)
        #expect(events.readFailures == report.errors)
        #expect(report.filesRead == 3)
        #expect(events.startedPaths == [oldest, damaged, newer])
    }

    @Test func missingFilesAreReportedAndSkipped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let real = dir.write("a.log", "a\n")
        let (sink, _, report) = try scan([dir.file("missing.log"), real])
        #expect(sink.messages == ["a"])
        #expect(report.errors.map(\.cause) == [.open(Errno(2))])
    }

    @Test(arguments: [4096, 4097, 65536])
    func resultsDoNotDependOnTheReadBufferSize(chunk: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var text = ""
        for i in 0..<3000 { text += i % 10 == 0 ? "head \(i)\n  cont \(i)\n" : "line \(i) é ✈\r\n" }
        let path = dir.write("app.log", text + "no newline at end")
        let (reference, _, _) = try scan([path])
        let (small, _, report) = try scan([path], chunkSize: chunk)
        #expect(small.entries.map(\.id) == reference.entries.map(\.id))
        #expect(small.entries.map(\.messageString) == reference.entries.map(\.messageString))
        #expect(small.entries.map(\.detailString) == reference.entries.map(\.detailString))
        #expect(small.entries.count == 3001)
        #expect(small.entries.last?.messageString == "no newline at end")
        #expect(report.linesRead == 3301)
    }

    @Test func emptyFilesGiveNoEntries() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (sink, _, report) = try scan([dir.write("empty.log", [])])
        #expect(sink.entries.isEmpty)
        #expect(report.errors.isEmpty)
    }
}
