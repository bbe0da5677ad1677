import Foundation
import Testing
@testable import SpytailCore
import SpytailTestSupport

/// JSON, logfmt and typed regex sources end to end through the pipeline: what the jsonl output holds.
struct StructuredParsingTests {
    static let categories = #"""
    , "parse": {"categories": [
        {"name": "error", "display": "E", "match": {"any": [{"field": "level", "in": ["ERROR", "CRITICAL"]}, {"field": "http.status", "gte": 500}]}},
        {"name": "warning", "display": "W", "match": {"field": "level", "equals": "WARNING"}},
        {"name": "info", "display": "I", "default": true}]}
    """#

    @Test func aJSONLineKeepsItsTypesAndGivesMessageTimestampAndCategory() throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#, rest: Self.categories)
        let line = #"{"ts":"2026-11-25T10:00:00.5Z","level":"ERROR","msg":"it said \"no\"\n","http":{"status":503,"ok":false},"tags":["a",null],"n":1}"#
        let records = try Structured.objects(line + "\n", config: config)
        let record = try #require(records.first)
        #expect(record["message"] as? String == "it said \"no\"\n")
        #expect(record["timestamp"] as? String == "2026-11-25T10:00:00.5Z")
        #expect(record["category"] as? String == "error")
        #expect(record["parseError"] == nil)
        let fields = try #require(record["fields"] as? [String: Any])
        #expect(Set(fields.keys) == ["level", "http", "tags", "n"])
        #expect((fields["http"] as? [String: Any])?["status"] as? Int == 503)
        #expect((fields["http"] as? [String: Any])?["ok"] as? Bool == false)
        #expect((fields["tags"] as? [Any])?.count == 2)
        let huge = try Structured.records(#"{"n":1e400,"m":-0.10}"# + "\n", config: config)[0]
        #expect(huge.contains(#""fields":{"n":1e400,"m":-0.10}"#), "numbers are kept as written: \(huge)")
        #expect((record["source"] as? [String: Any])?["name"] as? String == "app")
    }

    @Test func keysComeFromTheCommonWritersOrFromTheParser() throws {
        let defaults = try Structured.config(parser: #"{"format": "json"}"#)
        for (line, message, time) in [
            (#"{"asctime":"2026-11-25 10:00:00,123","levelname":"INFO","message":"python"}"#, "python", "2026-11-25 10:00:00,123"),
            (#"{"@timestamp":"2026-11-25T10:00:00Z","level":"INFO","message":"logback"}"#, "logback", "2026-11-25T10:00:00Z"),
            (#"{"level":"info","ts":1795168800.25,"msg":"zap"}"#, "zap", "1795168800.25"),
            (#"{"level":30,"time":1795168800123,"msg":"pino"}"#, "pino", "1795168800123"),
        ] {
            let entry = try #require(Structured.entries(line + "\n", config: defaults).first)
            #expect(entry.messageString == message)
            #expect(entry.timestampString == time)
        }
        let loguru = try Structured.config(parser: #"{"format": "json", "messageKey": "record.message", "timestampKey": "record.time.repr"}"#)
        let line = #"{"text":"...","record":{"message":"hi \u00e9","time":{"repr":"2026-11-25 10:00:00.1+00:00","timestamp":1795168800.1}}}"#
        let entry = try #require(Structured.entries(line + "\n", config: loguru).first)
        #expect(entry.messageString == "hi é")
        #expect(entry.timestampString == "2026-11-25 10:00:00.1+00:00")
    }

    @Test func theParsedTimeServesTimeWindows() throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#)
        let sink = RecordingEntrySink()
        let pipeline = EntryPipeline(rules: config.rules, continuation: nil, maxLineBytes: 1 << 20, filters: [],
                                     routes: [.init(condition: nil, sink: sink)],
                                     window: TimeWindow(since: 1_795_168_800_000_000_000, until: nil))
        var entry = SpyEntry(file: SourceFile(path: "/a", fingerprint: Fingerprint(value: 1), source: 0))
        for line in [#"{"ts":1795168799,"msg":"before"}"#, #"{"ts":1795168801000,"msg":"after"}"#] {
            entry.text = Array(line.utf8)
            entry.headLength = entry.text.count
            try pipeline.process(&entry)
        }
        #expect(sink.messages == ["after"])
    }

    @Test(arguments: [
        ("not json at all", "json: not an object at byte 0"),
        (#"["an","array"]"#, "json: not an object at byte 0"),
        (#"{"a":1"#, "json: the line ends inside a value at byte 6"),
        ("    at com.example.Main(Main.java:12)", "json: not an object at byte 4"),
        (#"{"a":1,"b":[1,}"#, "json: unexpected '}' at byte 14"),
    ])
    func aLineThatIsNotAJSONObjectKeepsFlowingWithItsParseError(_ line: String, _ why: String) throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#)
        let records = try Structured.objects(#"{"msg":"before"}"# + "\n" + line + "\n" + #"{"msg":"after"}"# + "\n", config: config)
        #expect(records.map { $0["message"] as? String } == ["before", line, "after"])
        #expect(records.map { $0["parseError"] as? String } == [nil, why, nil])
    }

    @Test func aCutLineSaysSo() throws {
        let config = try Structured.config(parser: #"{"format": "json", "maxLineBytes": 64}"#)
        let line = #"{"msg":""# + String(repeating: "x", count: 100) + #""}"#
        let record = try #require(Structured.objects(line + "\n", config: config).first)
        #expect(record["parseError"] as? String == "json: the line was cut at maxLineBytes at byte 64")
        #expect(record["truncated"] as? Bool == true)
    }

    @Test func aMultilineRuleJoinsARawStackTraceToTheJSONLineBeforeIt() throws {
        let config = try Structured.config(parser: #"{"format": "json", "multiline": {"continuation": "^(\\s|Traceback|\\w+Error:)"}}"#)
        let text = #"{"msg":"failed"}"# + "\nTraceback (most recent call last):\n  File \"x.py\", line 1\nValueError: no\n" + #"{"msg":"next"}"# + "\n"
        let records = try Structured.objects(text, config: config)
        #expect(records.map { $0["message"] as? String } == ["failed", "next"])
        #expect(records[0]["detail"] as? String == "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: no")
        #expect(records.allSatisfy { $0["parseError"] == nil })
    }

    @Test func logfmtLinesGiveFieldsAndTypesWhereAsked() throws {
        let config = try Structured.config(parser: #"{"format": "logfmt", "types": {"status": "integer", "cached": "boolean", "took": "number"}}"#)
        let line = #"time=2026-11-25T10:00:00Z level=warn msg="slow \"query\"" status=0200 took=.5 cached user=ann"#
        let record = try #require(Structured.objects(line + "\n", config: config).first)
        #expect(record["message"] as? String == #"slow "query""#)
        #expect(record["timestamp"] as? String == "2026-11-25T10:00:00Z")
        let fields = try #require(record["fields"] as? [String: Any])
        #expect(fields["status"] as? Int == 200)
        #expect(fields["took"] as? Double == 0.5)
        #expect(fields["cached"] as? Bool == true)
        #expect(fields["user"] as? String == "ann")
        #expect(fields["level"] as? String == "warn")
    }

    @Test func typedRegexGroupsAreNumbers() throws {
        let config = try Structured.compile(#"""
        {"sources": [{"name": "nginx", "include": ["*.log"], "parser": "combined"}],
         "parsers": {"combined": {"format": "regex",
           "pattern": "^(?<remote>\\S+) \\S+ \\S+ \\[(?<timestamp>[^\\]]+)\\] \"(?<request>[^\"]*)\" (?<status>\\d{3}) (?<bytes>\\d+|-)(?<message>.*)$",
           "timestampFormat": "%d/%b/%Y:%H:%M:%S %z", "types": {"status": "integer", "bytes": "integer"}}},
         "outputs": [{"type": "stdout", "where": {"field": "status", "gte": 500}}]}
        """#)
        let lines = #"127.0.0.1 - - [25/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 612 "-" "curl""# + "\n"
            + #"127.0.0.1 - - [25/Nov/2026:10:00:01 +0000] "GET /x HTTP/1.1" 502 - "-" "curl""# + "\n"
        let records = try Structured.objects(lines, config: config)
        #expect(records.count == 1)
        let fields = try #require(records.first?["fields"] as? [String: Any])
        #expect(fields["status"] as? Int == 502)
        #expect(fields["bytes"] as? String == "-", "a value that is not an integer stays text")
        let entry = try #require(Structured.entries(lines, config: config).last)
        let time = Array(try #require(entry.timestampString).utf8).withUnsafeBufferPointer { config.parser(forSource: 0).timestampFormat.parse($0) }
        #expect(time == TimestampParser.iso8601("2026-11-25T10:00:01Z"))
    }

    @Test func logfmtAndTextFormatsFlattenNestedFields() throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#)
        let line = #"{"msg":"hi","http":{"status":500,"path":"/a b"},"tags":["x"]}"#
        let logfmt = try Structured.records(line + "\n", config: config, format: .logfmt)[0]
        #expect(logfmt.contains(#" msg=hi http.status=500 http.path="/a b" tags.0=x "#), "\(logfmt)")
        #expect(logfmt.contains(" source=app "))
        let text = try Structured.records(line + "\n", config: config, format: .text)[0]
        #expect(text.hasSuffix(#"hi http.status=500 http.path="/a b" tags.0=x"#), "\(text)")
        let broken = try Structured.records("{oops\n", config: config, format: .text)[0]
        #expect(broken.hasSuffix("{oops [json: unexpected 'o' at byte 1]"), "\(broken)")
    }

    @Test func aFileWithoutASourceIsReadWithTheTopLevelParse() throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#)
        let record = try #require(Structured.objects(#"{"msg":"x"}"# + "\n", config: config, source: SourceFile.unnamed).first)
        #expect(record["message"] as? String == #"{"msg":"x"}"#)
        #expect(record["parseError"] == nil)
        #expect((record["source"] as? [String: Any])?["name"] == nil)
    }
}

