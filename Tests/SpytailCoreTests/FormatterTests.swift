import FoundationEssentials
import Testing
@testable import SpytailCore
import SpytailTestSupport

/// The three formats, through `FormattingSink` and a recording writer.
struct FormatterTests {
    func format(_ log: String, as format: SpytailConfig.Output.Format, color: Bool = false, batch: Int = 64 * 1024) throws -> RecordingByteWriter {
        let config = try Fixtures.compiled()
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: format.makeFormatter(vocabulary: config.rules.vocabulary, color: color), writer: writer,
                                  batchBytes: batch)
        try Fixtures.run(log, pipeline: EntryPipeline(config: config, sinks: [sink]))
        return writer
    }

    @Test func jsonlRecord() throws {
        let writer = try format("2026-11-20T10:00:01Z ERROR [db] [tca] q \"x\"\n\tat f()\nplain\n", as: .jsonl)
        #expect(writer.lines == [
            #"{"id":"0000000000abcdef-0","timestamp":"2026-11-20T10:00:01Z","category":"error","tags":["tca","db"],"message":"q \"x\"","detail":"\tat f()","fields":{"level":"ERROR","tags":"[db] [tca] "},"source":{"path":"/logs/app.log","offset":0}}"#,
            #"{"id":"0000000000abcdef-52","timestamp":null,"category":"info","tags":[],"message":"plain","detail":null,"fields":{},"source":{"path":"/logs/app.log","offset":52}}"#,
        ])
    }

    @Test func jsonlIsValidJSONForHostileBytes() throws {
        var log: [UInt8] = Array("t INFO a\u{0}b\r\n".utf8) + [0xFF, 0xFE, 0x22, 0x5C, 0x01, 0x0A]
        log += Array(repeating: UInt8(ascii: "x"), count: 100) + [0x0A]  // over maxLineBytes (64)
        let config = try Fixtures.compiled()
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: JSONLinesFormatter(vocabulary: config.rules.vocabulary), writer: writer)
        try Fixtures.run(String(decoding: log, as: UTF8.self), pipeline: EntryPipeline(config: config, sinks: [sink]))
        #expect(writer.lines.count == 3)
        struct Record: Decodable { let message: String; let truncated: Bool? }
        let records = try writer.lines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        #expect(records[0].message == "a\u{0}b")
        #expect(records[1].message == "\u{FFFD}\u{FFFD}\"\\\u{1}")
        #expect(records[2].message == String(repeating: "x", count: 64))
        #expect(records[2].truncated == true)
    }

    @Test func textIsReadableAndSafeForTerminals() throws {
        let writer = try format("2026-11-20T10:00:01Z ERROR [tca] boom \u{1B}[2J\n  at f()\n", as: .text)
        #expect(writer.text == "2026-11-20T10:00:01Z E 🏪 boom ^[[2J\n      at f()\n")
        let coloured = try format("t ERROR boom\n", as: .text, color: true)
        #expect(coloured.text == "\u{1B}[31mt E boom\u{1B}[0m\n")
    }

    @Test func logfmtQuotesWhatNeedsIt() throws {
        let writer = try format("t INFO [db] hello world\n", as: .logfmt)
        #expect(writer.text == #"id=0000000000abcdef-0 time=t category=info tags=db msg="hello world" level=INFO tags="[db] " path=/logs/app.log offset=0"# + "\n")
    }

    @Test func flushesInBatchesAndAtTheEnd() throws {
        let log = (0..<100).map { "t INFO line \($0)" }.joined(separator: "\n") + "\n"
        let writer = try format(log, as: .text, batch: 256)
        #expect(writer.writes.count >= 4)
        #expect(writer.writes.dropLast().allSatisfy { $0.count >= 256 })
        #expect(writer.lines.count == 100)
    }
}

/// Losses are data: a gap record reaches every output, whatever the filters and `where` say.
struct GapReportTests {
    @Test func gapRecordsReachEveryOutputPastFiltersAndWhere() throws {
        let config = try Fixtures.compiled(filters: #"[{"exclude": {"contains": "gap"}}]"#,
                                           outputs: #"[{"type": "stdout"}, {"type": "file", "path": "e", "where": {"category": "error"}}]"#)
        let writers = [RecordingByteWriter(), RecordingByteWriter()]
        let sinks = writers.map { FormattingSink(formatter: JSONLinesFormatter(vocabulary: config.rules.vocabulary), writer: $0) }
        let pipeline = EntryPipeline(config: config, sinks: sinks)
        try pipeline.processGap(GapReport(file: Fixtures.file, offset: 120, bytes: 4096, reason: .idle))
        try pipeline.flush()
        for writer in writers {
            #expect(writer.lines == [
                #"{"id":"0000000000abcdef-120","timestamp":null,"category":"gap","tags":[],"message":"gap: 4096 bytes skipped while spytail was idle","detail":null,"fields":{"gapBytes":"4096","gapReason":"idle"},"source":{"path":"/logs/app.log","offset":120}}"#,
            ])
        }
        #expect(pipeline.statistics.gaps == 1)
        #expect(pipeline.statistics.writtenByOutput == [1, 1])
    }
}

/// A full destination: exactly the bytes that did not get out stay buffered, in order.
struct StalledSinkTests {
    /// Takes `capacity` bytes, then fails with ENOSPC after a partial write, until given more room.
    final class FullDisk: ByteWriter {
        let name = "disk"
        var capacity: Int
        var stored: [UInt8] = []
        init(capacity: Int) { self.capacity = capacity }
        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
            let room = max(0, capacity - stored.count)
            stored += bytes.prefix(room)
            if room < bytes.count { throw SinkError(destination: name, cause: .noSpace, written: room) }
        }
    }

    @Test func aRetriedFlushContinuesByteForByte() throws {
        let config = try Fixtures.compiled()
        let disk = FullDisk(capacity: 100)
        let sink = FormattingSink(formatter: JSONLinesFormatter(vocabulary: config.rules.vocabulary), writer: disk, batchBytes: 256)
        let pipeline = EntryPipeline(config: config, sinks: [sink])
        let log = (0..<20).map { "t INFO line \($0)\n" }.joined()
        try Fixtures.runWithoutFlush(log, pipeline: pipeline)  // the batch flush inside consume stalls quietly
        #expect(sink.isStalled)
        #expect(pipeline.isStalled)
        #expect(throws: SinkError(destination: "disk", cause: .noSpace, written: 0)) { try pipeline.flush() }
        disk.capacity = 1 << 20
        try pipeline.flush()
        #expect(!sink.isStalled)
        let lines = String(decoding: disk.stored, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines.allSatisfy { (try? JSONDecoder().decode([String: JSONValueProbe].self, from: Data($0.utf8))) != nil })
    }

    /// Any JSON value, to check a line parses.
    struct JSONValueProbe: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    // MARK: ClickHouse rows

    func clickHouseRows(_ log: String) throws -> [String] {
        let config = try Fixtures.compiled()
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: ClickHouseJSONEachRowFormatter(vocabulary: config.rules.vocabulary, host: "web-1"), writer: writer)
        try Fixtures.run(log, pipeline: EntryPipeline(config: config, sinks: [sink]))
        return writer.lines
    }

    @Test func clickHouseRowHasTheTablesColumns() throws {
        let rows = try clickHouseRows("2026-11-20T10:00:01Z ERROR [db] [tca] q \"x\"\n\tat f()\nplain\n")
        #expect(rows == [
            #"{"id":"0000000000abcdef-0","timestamp":"2026-11-20T10:00:01Z","time":null,"category":"error","tags":["tca","db"],"message":"q \"x\"","detail":"\tat f()","fields":"{\"level\":\"ERROR\",\"tags\":\"[db] [tca] \"}","path":"/logs/app.log","offset":0,"host":"web-1"}"#,
            #"{"id":"0000000000abcdef-52","timestamp":null,"time":null,"category":"info","tags":[],"message":"plain","detail":null,"fields":"{}","path":"/logs/app.log","offset":52,"host":"web-1"}"#,
        ])
    }

    @Test func clickHouseFieldsAreJSONTextEvenForHostileValues() throws {
        // A field value with a quote, a backslash, a control byte and invalid UTF-8: the row is JSON, and its
        // `fields` string is JSON again.
        let log: [UInt8] = Array("t INFO [db] ".utf8) + [0x22, 0x5C, 0x01, 0xFF] + Array(" m\n".utf8)
        let config = try Fixtures.compiled(pattern: #"^(?<timestamp>\S+) (?<level>[A-Z]+) (?<tags>\S+ \S+) (?<message>.*)$"#)
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: ClickHouseJSONEachRowFormatter(vocabulary: config.rules.vocabulary, host: "h\"1"), writer: writer)
        try Fixtures.run(String(decoding: log, as: UTF8.self), pipeline: EntryPipeline(config: config, sinks: [sink]))
        struct Row: Decodable { let fields: String; let host: String; let message: String }
        let row = try JSONDecoder().decode(Row.self, from: Data(writer.lines[0].utf8))
        let fields = try JSONDecoder().decode([String: String].self, from: Data(row.fields.utf8))
        #expect(fields["tags"] == "[db] \"\\\u{1}\u{FFFD}")
        #expect(fields["level"] == "INFO")
        #expect(row.host == "h\"1")
        #expect(row.message == "m")
    }

    func clickHouseTabSeparatedRows(_ log: [UInt8], pattern: String? = nil, host: String = "web-1") throws -> [String] {
        let config = try pattern.map { try Fixtures.compiled(pattern: $0) } ?? Fixtures.compiled()
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: ClickHouseTabSeparatedFormatter(vocabulary: config.rules.vocabulary, host: host), writer: writer)
        try Fixtures.run(String(decoding: log, as: UTF8.self), pipeline: EntryPipeline(config: config, sinks: [sink]))
        return writer.lines
    }

    /// A TabSeparated row split into its fields and unescaped, as ClickHouse reads it (`nil` for `\N`).
    static func tabSeparatedFields(_ row: String) -> [String?] {
        row.split(separator: "\t", omittingEmptySubsequences: false).map { field in
            if field == #"\N"# { return nil }
            var out = "", escaping = false
            for ch in field {
                if escaping {
                    let letters: [Character: String] = ["t": "\t", "n": "\n", "r": "\r", "0": "\u{0}", "b": "\u{8}", "f": "\u{C}"]
                    out += letters[ch] ?? String(ch)
                    escaping = false
                } else if ch == "\\" {
                    escaping = true
                } else {
                    out.append(ch)
                }
            }
            return out
        }
    }

    @Test func clickHouseTabSeparatedRowHasTheSameValuesAsTheJSONRow() throws {
        let rows = try clickHouseTabSeparatedRows(Array("2026-11-20T10:00:01Z ERROR [db] [tca] q \"x\"\n\tat f()\nplain\n".utf8))
        #expect(rows == [
            ["0000000000abcdef-0", "2026-11-20T10:00:01Z", #"\N"#, "error", "['tca','db']", #"q "x""#, #"\tat f()"#,
             #"{"level":"ERROR","tags":"[db] [tca] "}"#, "/logs/app.log", "0", "web-1"].joined(separator: "\t"),
            ["0000000000abcdef-52", #"\N"#, #"\N"#, "info", "[]", "plain", #"\N"#, "{}", "/logs/app.log", "52", "web-1"].joined(separator: "\t"),
        ])
    }

    @Test func clickHouseTabSeparatedEscapesHostileValuesAndFieldsStayJSON() throws {
        // A message with a tab, a backslash, a quote and invalid UTF-8; a field value with a double quote, a
        // backslash, a control byte, a quote and invalid UTF-8; a host with a tab.
        let log: [UInt8] = Array("t INFO [db] ".utf8) + [0x22, 0x5C, 0x01, 0x27, 0xFF] + Array(" m\t\\'".utf8) + [0xC3] + Array("\n".utf8)
        let rows = try clickHouseTabSeparatedRows(log, pattern: #"^(?<timestamp>\S+) (?<level>[A-Z]+) (?<tags>\S+ \S+) (?<message>.*)$"#,
                                                  host: "h\t1")
        #expect(rows.count == 1 && !rows[0].contains("\n"))
        let fields = Self.tabSeparatedFields(rows[0])
        #expect(fields.count == ClickHouseTable.columns.count, "\(fields)")
        guard fields.count == ClickHouseTable.columns.count else { return }
        #expect(fields[5] == "m\t\\'\u{FFFD}")
        #expect(fields[10] == "h\t1")
        let json = try JSONDecoder().decode([String: String].self, from: Data((fields[7] ?? "").utf8))
        #expect(json["tags"] == "[db] \"\\\u{1}'\u{FFFD}")
        #expect(json["level"] == "INFO")
    }

    // MARK: syslog messages

    @Test func syslogMessageIsOctetCountedRFC5424WithEscapedStructuredData() throws {
        // A syslog output in the config makes the pipeline parse every timestamp.
        let config = try Fixtures.compiled(outputs: #"[{"type": "syslog", "address": "127.0.0.1:514"}]"#)
        var settings = SyslogOutput(host: "h", port: 1)
        settings.facility = 16
        settings.severities = ["error": 3]
        settings.appName = "app"
        let writer = RecordingByteWriter()
        // 2026-11-20T10:00:05.5Z is the arrival time of lines without a timestamp.
        let sink = FormattingSink(formatter: SyslogFormatter(vocabulary: config.rules.vocabulary, settings: settings, hostname: "web 1",
                                                             now: { 1_795_168_805_500_000_000 }), writer: writer)
        try Fixtures.run("2026-11-20T10:00:01Z ERROR [db] q \"x\" ]\n\tat f()\nplain\n",
                         pipeline: EntryPipeline(config: config, sinks: [sink]))
        let first = #"<131>1 2026-11-20T10:00:01.000000Z web_1 app - - [spytail@32473 id="0000000000abcdef-0" category="error" tags="db" path="/logs/app.log" offset="0" level="ERROR" tags="[db\] "] q "x" ]"# + "\n\tat f()"
        let second = #"<134>1 2026-11-20T10:00:05.500000Z web_1 app - - [spytail@32473 id="0000000000abcdef-48" category="info" tags="" path="/logs/app.log" offset="48"] plain"#
        #expect(writer.text == "\(first.utf8.count) \(first)\(second.utf8.count) \(second)")
    }
}
