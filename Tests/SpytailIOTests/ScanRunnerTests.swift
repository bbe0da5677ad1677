import FoundationEssentials
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// The scan runner over real files: order, ids across compression, damage in the middle of a chain,
/// read-buffer and block boundaries, and the same output with and without worker threads.
struct ScanRunnerTests {
    static let config = #"{"parse": {"multiline": {"continuation": "^\\s"}}}"#

    struct Record: Decodable, Equatable {
        let id: String
        let category: String
        let message: String
        let detail: String?
        let source: Source
        struct Source: Decodable, Equatable { let path: String; let offset: Int64 }
    }

    struct Scan {
        let records: [Record]
        let events: RecordingEventReporter
        let report: ScanReport
        let stats: PipelineStats
        var messages: [String] { records.map(\.message) }
    }

    func scan(_ paths: [String], workers: Int = 0, blockBytes: Int = 256 * 1024, chunkSize: Int = 256 * 1024,
              config: String = ScanRunnerTests.config) throws -> Scan {
        let compiled = try CompiledConfig(json: Array(config.utf8))
        let writer = RecordingByteWriter()
        let events = RecordingEventReporter()
        let runner = ScanRunner(config: compiled,
                                outputs: [OpenOutput(formatter: JSONLinesFormatter(vocabulary: compiled.rules.vocabulary), writer: writer)],
                                events: events, workers: workers, blockBytes: blockBytes, chunkSize: chunkSize)
        let report = try runner.run(paths: paths)
        let records = try writer.lines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        return Scan(records: records, events: events, report: report, stats: runner.statistics)
    }

    @Test(arguments: [0, 2])
    func idsAreTheSameForPlainAndCompressedCopies(workers: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = "first line\nsecond\n  continued\nthird\n"
        let plain = dir.write("app.log.1", text)
        let gz = dir.write("app.log.1.gz", Gzip.member(Array(text.utf8)))
        let fromPlain = try scan([plain], workers: workers)
        let fromGzip = try scan([gz], workers: workers)
        #expect(fromPlain.records.map(\.id) == fromGzip.records.map(\.id))
        #expect(fromPlain.records.map(\.source.offset) == [0, 11, 30])
        #expect(fromPlain.records.map(\.source.path) == [plain, plain, plain])
        #expect(fromPlain.records[1].detail == "  continued")
        #expect(Set(fromPlain.records.map(\.id)).count == 3)
    }

    @Test(arguments: [0, 2])
    func aDamagedFileInTheMiddleIsReportedAndTheRestStillFlows(workers: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member((0..<3000).map { "old \($0)\n" }.joined())
        let oldest = dir.write("app.log.3.gz", Gzip.member("oldest\n"))
        let damaged = dir.write("app.log.2.gz", Array(whole[..<(whole.count / 2)]))
        let newer = dir.write("app.log.1", "newer\n")
        let result = try scan([oldest, damaged, newer], workers: workers)
        let messages = result.messages
        #expect(messages.first == "oldest")
        #expect(messages.last == "newer")
        // Every line before the damage, in order (the last one may be cut where the data ends), then one
        // gap record at the decompressed offset where reading stopped.
        let middle = Array(messages.dropFirst().dropLast(2))
        #expect(middle.dropLast().enumerated().allSatisfy { $0.element == "old \($0.offset)" })
        #expect("old \(middle.count - 1)".hasPrefix(middle.last ?? "-"))
        let gaps = result.records.filter { $0.category == "gap" }
        #expect(gaps.count == 1)
        #expect(gaps.first?.source.path == damaged)
        #expect(gaps.first?.source.offset == Int64(middle.map { $0.utf8.count + 1 }.reduce(0, +) - 1)
                || gaps.first?.source.offset == Int64(middle.map { $0.utf8.count + 1 }.reduce(0, +)))
        #expect(messages[messages.count - 2].hasPrefix("gap: reading stopped at offset"))
        #expect(messages.count > 100)
        #expect(result.report.errors.count == 1)
        #expect(result.report.errors.first?.path == damaged)
        #expect(result.events.readFailures == result.report.errors)
        #expect(result.report.filesRead == 3)
        #expect(result.events.startedPaths == [oldest, damaged, newer])
    }

    @Test func missingFilesAreReportedAndSkipped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let real = dir.write("a.log", "a\n")
        let result = try scan([dir.file("missing.log"), real])
        #expect(result.messages == ["a"])
        #expect(result.report.errors.map(\.cause) == [.open(Errno(2))])
    }

    /// Blocks of every size, read buffers of every size, with and without workers: the same records.
    @Test(arguments: [(0, 64, 4096), (2, 64, 4096), (2, 1000, 4097), (1, 100_000, 65536), (2, 256 * 1024, 1 << 20)])
    func resultsDoNotDependOnBlocksBuffersOrThreads(workers: Int, blockBytes: Int, chunk: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var text = ""
        for i in 0..<3000 { text += i % 10 == 0 ? "head \(i)\n  cont \(i)\n\tmore \(i)\n" : "line \(i) é ✈\r\n" }
        let path = dir.write("app.log", text + "no newline at end")
        let reference = try scan([path], workers: 0, blockBytes: 1 << 30, chunkSize: 1 << 20)
        let result = try scan([path], workers: workers, blockBytes: blockBytes, chunkSize: chunk)
        #expect(result.records == reference.records)
        #expect(result.records.count == 3001)
        #expect(result.records.last?.message == "no newline at end")
        #expect(result.records[0].detail == "  cont 0\n\tmore 0")
        #expect(result.report.linesRead == 3601)
        #expect(result.stats == reference.stats)
        #expect(result.stats.entries == 3001)
    }

    @Test(arguments: [0, 2])
    func countersAreSummedOverWorkers(workers: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("a.log", (0..<5000).map { $0 % 3 == 0 ? "drop \($0)\n" : "keep \($0)\n" }.joined())
        let config = #"{"filters": [{"exclude": {"prefix": "drop"}}]}"#
        let result = try scan([path], workers: workers, blockBytes: 512, config: config)
        #expect(result.stats.entries == 5000)
        #expect(result.stats.excludedByFilter == [1667])
        #expect(result.stats.writtenByOutput == [3333])
        #expect(result.messages.first == "keep 1")
        #expect(result.messages.last == "keep 4999")
    }

    @Test func emptyFilesGiveNoEntries() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try scan([dir.write("empty.log", [])])
        #expect(result.records.isEmpty)
        #expect(result.report.errors.isEmpty)
    }

    @Test(arguments: [0, 2])
    func aFailingOutputStopsTheScanWithItsError(workers: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("a.log", (0..<20000).map { "line \($0)\n" }.joined())
        let compiled = try CompiledConfig(json: Array("{}".utf8))
        let writer = RecordingByteWriter()
        writer.writeError = SinkError(destination: "x", cause: .noSpace)
        let runner = ScanRunner(config: compiled,
                                outputs: [OpenOutput(formatter: JSONLinesFormatter(vocabulary: compiled.rules.vocabulary), writer: writer)],
                                events: RecordingEventReporter(), workers: workers, blockBytes: 1024)
        #expect(throws: SinkError(destination: "x", cause: .noSpace)) { try runner.run(paths: [path]) }
    }

    /// A head line and 20,000 continuation lines of 100 bytes: `scan`'s block cutter ends an entry where the
    /// live reader (`EntryStream`) does, at `ContinuationRule.maxEntryBytes` (1 MiB with 1 KiB lines), with
    /// and without workers; every line is in a record.
    @Test(arguments: [0, 2])
    func anEntryOfEndlessContinuationLinesIsCutWhereTheLiveReaderCutsIt(workers: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var text = "2026-11-27T10:00:00Z ERROR a trace without end\n"
        for i in 0..<20_000 {
            let frame = "    at frame \(i)"
            text += frame + String(repeating: ".", count: 99 - frame.utf8.count) + "\n"
        }
        let path = dir.write("app.log", text)
        let config = #"{"parse": {"maxLineBytes": 1024, "multiline": {"continuation": "^\\s"}}}"#
        let scanned = try scan([path], workers: workers, blockBytes: 64 * 1024, chunkSize: 64 * 1024, config: config)
        var live = EntryStream(file: SourceFile(path: path, fingerprint: Fingerprint(value: 1)), maxLineBytes: 1024,
                               continuation: try Regex(#"^\s"#))
        var liveOffsets: [Int64] = []
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            live.push(bytes) { liveOffsets.append($0.offset) }
            live.finish { liveOffsets.append($0.offset) }
        }
        #expect(scanned.records.count == 2)
        #expect(scanned.records.map(\.source.offset) == liveOffsets)
        let lines = scanned.records.map { [$0.message] + ($0.detail.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []) }
        #expect(lines.joined().count == 20_001, "no line lost")
    }
}
