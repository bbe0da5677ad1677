import FoundationEssentials
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// `explore` over real files (plain and gzip, a damaged gzip): the index's order, pages that read the text
/// again and equal what `scan --merge` writes, searches, conditions, context, and files that changed.
struct ExplorerTests {
    static let config = #"""
        {"parse": {"pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$", "multiline": {"continuation": "^\\s"},
          "categories": [{"name": "error", "match": {"field": "level", "prefix": "ERROR"}}, {"name": "info", "default": true}]},
         "filters": [{"exclude": {"contains": "heartbeat"}}]}
        """#

    struct Record: Decodable {
        let id: String
        let message: String
        let category: String
        let detail: String?
    }

    func explorer(_ paths: [String], searchBlockRows: Int = 16_384,
                  seekPointSpacing: Int64? = HistoryIndexer.defaultSeekPointSpacing) throws -> (Explorer, ScanReport, RecordingEventReporter) {
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let events = RecordingEventReporter()
        let indexer = HistoryIndexer(config: compiled, events: events, seekPointSpacing: seekPointSpacing)
        let (index, report) = indexer.index(files: paths.map { ($0, SourceFile.unnamed) })
        return (Explorer(index: index, config: compiled, seekPoints: indexer.seekPoints, searchBlockRows: searchBlockRows), report, events)
    }

    func decode(_ records: [[UInt8]]) throws -> [Record] {
        try records.map { try JSONDecoder().decode(Record.self, from: Data($0)) }
    }

    /// What `scan --merge` writes for the same files, as the records' lines.
    func merged(_ paths: [String]) throws -> [String] {
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let writer = RecordingByteWriter()
        let runner = MergeRunner(config: compiled,
                                 outputs: [OpenOutput(formatter: JSONLinesFormatter(vocabulary: compiled.rules.vocabulary), writer: writer)],
                                 events: RecordingEventReporter())
        _ = try runner.run(files: paths.map { ($0, SourceFile.unnamed) })
        return writer.lines
    }

    /// A plain file and a gzip one whose times interleave, with a multiline entry and a filtered one.
    func twoFiles(_ dir: TemporaryDirectory) -> [String] {
        let plain = dir.write("app.log", """
            2026-11-26T10:00:01Z INFO started
            2026-11-26T10:00:03Z ERROR Upstream timeout
              at handler.swift:42
            2026-11-26T10:00:04Z INFO heartbeat
            2026-11-26T10:00:05Z INFO done

            """)
        let gzip = dir.write("app.log.1.gz", Gzip.member("""
            2026-11-26T10:00:00Z INFO boot
            2026-11-26T10:00:02Z INFO a TIMEOUT in the cache
            2026-11-26T10:00:06Z ERROR status=503

            """))
        return [plain, gzip]
    }

    @Test func pagesReadTheTextAgainAndEqualWhatScanMergeWrites() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let paths = twoFiles(dir)
        let (explorer, report, _) = try explorer(paths)
        #expect(report.filesRead == 2 && report.errors.isEmpty && explorer.withIndex(\.count) == 6)
        let page = try explorer.page(ExploreQuery(), after: nil, limit: 100)
        #expect(page.total == 6 && page.next == nil)
        #expect(page.records.map { String(decoding: $0, as: UTF8.self) } == (try merged(paths)))
        #expect(try decode(page.records)[3].detail == "  at handler.swift:42")
    }

    @Test func pagingGoesOnWhereThePageEnded() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (explorer, _, _) = try explorer(twoFiles(dir))
        var messages: [String] = [], after: Int? = nil, pages = 0
        repeat {
            let page = try explorer.page(ExploreQuery(), after: after, limit: 4)
            messages += try decode(page.records).map(\.message)
            #expect(page.total == 6)
            after = page.next
            pages += 1
        } while after != nil && pages < 10
        #expect(pages == 2)
        #expect(messages == ["boot", "started", "a TIMEOUT in the cache", "Upstream timeout", "done", "status=503"])
    }

    @Test func searchesAreSmartCaseOrRegexAndConditionsNarrowThem() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (explorer, _, _) = try explorer(twoFiles(dir))
        func messages(_ query: ExploreQuery) throws -> [String] {
            try decode(explorer.page(query, after: nil, limit: 100).records).map(\.message)
        }
        #expect(try messages(ExploreQuery(text: "timeout")) == ["a TIMEOUT in the cache", "Upstream timeout"])
        #expect(try messages(ExploreQuery(text: "TIMEOUT")) == ["a TIMEOUT in the cache"])
        #expect(try messages(ExploreQuery(text: "status=5\\d\\d", isRegex: true)) == ["status=503"])
        #expect(try messages(ExploreQuery(text: "timeout", includes: ["category:error"])) == ["Upstream timeout"])
        #expect(try messages(ExploreQuery(excludes: ["category:info"])) == ["Upstream timeout", "status=503"])
        // A window narrows a search, and the histogram and facets count its matches.
        let t = { (text: String) in TimestampParser.iso8601(text)! }
        let windowed = ExploreQuery(from: t("2026-11-26T10:00:02.500Z"), to: t("2026-11-26T10:00:06Z"), text: "timeout")
        #expect(try messages(windowed) == ["Upstream timeout"])
        #expect(try explorer.histogram(ExploreQuery(text: "timeout"), buckets: 10).total == 2)
        let facets = try explorer.facets(ExploreQuery(text: "timeout"))
        #expect(facets.rows == 2 && facets.categories.values.sorted() == [1, 1])
        #expect(throws: ExploreError.self) { try explorer.page(ExploreQuery(text: "(", isRegex: true), after: nil, limit: 1) }
        #expect(throws: ExploreError.self) { try explorer.page(ExploreQuery(includes: ["category:nope"]), after: nil, limit: 1) }
    }

    @Test func contextIsTheEntrysNeighboursInItsOwnFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (explorer, _, _) = try explorer(twoFiles(dir))
        let all = try decode(explorer.page(ExploreQuery(), after: nil, limit: 100).records)
        let timeout = try #require(all.first { $0.message == "Upstream timeout" })
        let (records, at) = try explorer.context(id: timeout.id, before: 5, after: 5)
        #expect(try decode(records).map(\.message) == ["started", "Upstream timeout", "done"])
        #expect(at == 1)
        #expect(throws: ExploreError.self) { try explorer.context(id: "0000000000000001-0", before: 1, after: 1) }
    }

    /// Many entries in a gzip file, read a page at a time forward and then back: the same records as one read.
    @Test func aGzipFileIsReadOnFromWhereTheLastPageStoppedAndFromItsStartWhenGoingBack() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let lines = (0..<20_000).map { "2026-11-26T10:\(String(format: "%02d:%02d", $0 / 600 % 60, $0 / 10 % 60)).\(String(format: "%03d", $0 % 10 * 100))Z INFO line \($0) \(String(repeating: "y", count: 30))\n" }
        let path = dir.write("big.log.gz", Gzip.member(lines.joined()))
        let (explorer, _, _) = try explorer([path])
        #expect(explorer.withIndex(\.count) == 20_000)
        var messages: [String] = [], after: Int? = nil
        repeat {
            let page = try explorer.page(ExploreQuery(), after: after, limit: 1500)
            messages += try decode(page.records).map(\.message)
            after = page.next
        } while after != nil
        #expect(messages == (0..<20_000).map { "line \($0) \(String(repeating: "y", count: 30))" })
        let back = try decode(explorer.page(ExploreQuery(), after: 99, limit: 2).records).map(\.message)
        #expect(back.map { $0.prefix(8) } == ["line 100", "line 101"])
        #expect(try explorer.page(ExploreQuery(text: "line 1999"), after: nil, limit: 100).total == 11)
    }

    /// A search reads blocks of rows only as far as its page needs; a count reads them all; both agree after.
    @Test func aSearchReadsOnlyAsFarAsItsPageNeeds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let lines = (0..<5000).map { "2026-11-26T10:00:00.\(String(format: "%03d", $0 / 5))Z \($0 % 7 == 0 ? "ERROR" : "INFO") entry \($0)\n" }
        let path = dir.write("app.log.gz", Gzip.member(lines.joined()))
        let (explorer, _, _) = try explorer([path], searchBlockRows: 1000)
        let first = try explorer.page(ExploreQuery(text: "entry"), after: nil, limit: 5)
        #expect(first.records.count == 5 && !first.complete && first.total == 1000, "one block of 1,000 rows was read")
        let errors = ExploreQuery(text: "entry", includes: ["category:error"])
        let page = try explorer.page(errors, after: nil, limit: 200)
        #expect(!page.complete && page.total == 286 && page.next != nil, "two blocks: 143 errors each")
        #expect(try decode(page.records).map(\.message).last == "entry 1393")
        #expect(try explorer.count(errors) == 715)
        let after = try explorer.page(errors, after: page.next, limit: 200)
        #expect(after.complete && after.total == 715)
        #expect(try decode(after.records).first?.message == "entry 1400")
        #expect(try explorer.histogram(errors, buckets: 10).total == 715)
    }

    @Test func aDamagedGzipIsIndexedUpToTheDamageWithAGapThere() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member((0..<3000).map { "2026-11-26T10:00:00.\(String(format: "%03d", $0 / 3))Z INFO entry \($0)\n" }.joined())
        let damaged = dir.write("old.log.gz", Array(whole[..<(whole.count / 2)]))
        let plain = dir.write("new.log", "2026-11-26T10:00:05Z INFO after\n")
        let (explorer, report, events) = try explorer([damaged, plain])
        #expect(report.errors.count == 1 && report.errors.first?.path == damaged)
        #expect(events.events.contains { if case .readFailed = $0 { true } else { false } })
        let records = try decode(explorer.page(ExploreQuery(), after: nil, limit: 5000).records)
        let gap = try #require(records.firstIndex { $0.category == "gap" })
        #expect(gap > 100 && records[gap + 1].message == "after" && gap == records.count - 2)
        #expect(records[gap - 1].message.hasPrefix("entry "))
        #expect(try explorer.page(ExploreQuery(includes: ["category:gap"]), after: nil, limit: 10).total == 1)
    }

    @Test func anEntryWhoseFileChangedIsLeftOutNotMadeUp() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let paths = twoFiles(dir)
        let (explorer, _, _) = try explorer(paths)
        try FileManager.default.removeItem(atPath: paths[0])
        let page = try explorer.page(ExploreQuery(), after: nil, limit: 100)
        #expect(try decode(page.records).map(\.message) == ["boot", "a TIMEOUT in the cache", "status=503"])
        #expect(page.total == 6 && page.unreadable == 3)
        // Another content under the indexed name: not read as if it were the indexed one.
        dir.write("app.log", "2026-11-26T10:00:01Z INFO other content, other first line\n" + String(repeating: "2026-11-26T10:00:03Z ERROR x\n", count: 9))
        let replaced = try explorer.page(ExploreQuery(), after: nil, limit: 100)
        #expect(try decode(replaced.records).map(\.message) == ["boot", "a TIMEOUT in the cache", "status=503"])
        #expect(replaced.unreadable == 3)
    }

    /// A JSON message decoded from escapes is searched as decoded: the raw line does not hold the text, so no
    /// entry of a JSON source is dropped before it is parsed; field conditions read the parsed fields.
    @Test func aJsonMessageIsSearchedAsDecodedAndItsFieldsByConditions() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = #"{"sources": [{"name": "api", "include": ["*.json.log"], "parser": "j"}], "parsers": {"j": {"format": "json"}}}"#
        let path = dir.write("app.json.log", [
            #"{"time":"2026-11-26T10:00:00Z","message":"caf\u00e9 opened","http":{"status":200}}"#,
            #"{"time":"2026-11-26T10:00:01Z","message":"CAFÉ closed","http":{"status":503}}"#,
            #"{"time":"2026-11-26T10:00:02Z","message":"tea","http":{"status":500}}"#,
        ].joined(separator: "\n") + "\n")
        let compiled = try CompiledConfig(json: Array(config.utf8))
        let (index, _) = HistoryIndexer(config: compiled, events: RecordingEventReporter()).index(files: [(path, 0)])
        let explorer = Explorer(index: index, config: compiled)
        func messages(_ query: ExploreQuery) throws -> [String] { try decode(explorer.page(query, after: nil, limit: 10).records).map(\.message) }
        #expect(try messages(ExploreQuery(text: "café")) == ["café opened"])
        #expect(try messages(ExploreQuery(text: "caf")) == ["café opened", "CAFÉ closed"])
        #expect(try messages(ExploreQuery(includes: [#"{"field": "http.status", "gte": 500}"#])) == ["CAFÉ closed", "tea"])
        // The top values of a field, in a sample spread over the view.
        let top = try explorer.topValues(ExploreQuery(), field: "http.status")
        #expect(top.values.map(\.value) == ["200", "500", "503"] && top.values.allSatisfy { $0.count == 1 } && top.sampled == 3 && top.missing == 0)
        #expect(try explorer.topValues(ExploreQuery(text: "caf"), field: "http.status").values.map(\.value) == ["200", "503"])
        #expect(try explorer.topValues(ExploreQuery(), field: "user.name").missing == 3)
        let sampled = try explorer.topValues(ExploreQuery(), field: "http.status", sample: 2)
        #expect(sampled.sampled == 2 && sampled.values.map(\.value) == ["200", "500"], "rows 0 and 2")
        #expect(throws: ExploreError.self) { try explorer.topValues(ExploreQuery(), field: "") }
    }

    /// A large gzip member read through seek points in any order (the last entry first, then the first, then
    /// pages from the middle) gives the records `scan --merge` writes; so does the same path decompressed in place.
    @Test func entriesDeepInAGzipMemberAreReadFromItsSeekPoints() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let lines = (0..<4000).map { "2026-11-26T10:\($0 / 60 % 60):\($0 % 60)Z INFO request \($0) \(String(repeating: "x", count: 200 + $0 % 50))" }
        let text = lines.joined(separator: "\n") + "\n"
        let path = dir.write("app.log.1.gz", Gzip.member(text))
        let expected = try merged([path])
        // Indexing reads 256 KB at a time: a point after each read of this 1 MB member but the last.
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let indexer = HistoryIndexer(config: compiled, events: RecordingEventReporter(), seekPointSpacing: 16_384)
        let (index, _) = indexer.index(files: [(path, SourceFile.unnamed)])
        #expect(index.count == 4000 && (indexer.seekPoints[0]?.count ?? 0) >= 3)
        let explorer = Explorer(index: index, config: compiled, seekPoints: indexer.seekPoints)
        func page(after: Int?, limit: Int) throws -> [String] {
            try explorer.page(ExploreQuery(), after: after, limit: limit).records.map { String(decoding: $0, as: UTF8.self) }
        }
        for (after, limit) in [(3997, 2), (nil, 3), (2500, 5), (1200, 5), (3000, 1000)] as [(Int?, Int)] {
            let from = (after ?? -1) + 1
            #expect(try page(after: after, limit: limit) == Array(expected[from..<min(expected.count, from + limit)]))
        }
        let last = try decode([Array(expected[3999].utf8)])[0]
        let context = try explorer.context(id: last.id, before: 2, after: 0)
        #expect(context.records.map { String(decoding: $0, as: UTF8.self) } == Array(expected[3997...]))
        // Decompressed in place: same name, same content, no longer gzip. The points are not used.
        _ = dir.write("app.log.1.gz", text)
        #expect(try page(after: 3500, limit: 2) == Array(expected[3501..<3503]))
    }
}
