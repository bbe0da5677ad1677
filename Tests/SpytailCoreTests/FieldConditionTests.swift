import Foundation
import Testing
@testable import SpytailCore

/// Conditions on fields, sources and their combinations, in filters and outputs' `where`.
struct FieldConditionTests {
    static let lines = [
        #"{"msg":"a","level":"ERROR","http":{"status":503,"path":"/api"},"dur":"1.5","ok":false,"tags":["x","y"],"a.b":1}"#,
        #"{"msg":"b","level":"INFO","http":{"status":200,"path":"/health"},"dur":0.1,"ok":true,"user":null}"#,
        #"{"msg":"c","level":"WARNING","http":{"status":"404"},"note":"caf\u00e9"}"#,
    ]

    static func kept(_ condition: String) throws -> [String] {
        let config = try Structured.config(parser: #"{"format": "json"}"#,
                                           rest: #", "outputs": [{"type": "stdout", "where": \#(condition)}]"#)
        return try Structured.objects(lines.joined(separator: "\n") + "\n", config: config).map { $0["message"] as! String }
    }

    @Test(arguments: [
        (#"{"field": "level", "equals": "ERROR"}"#, ["a"]),
        (#"{"field": "level", "in": ["ERROR", "WARNING"]}"#, ["a", "c"]),
        (#"{"field": "http.status", "gte": 500}"#, ["a"]),
        (#"{"field": "http.status", "gte": 300, "lt": 500}"#, ["c"]),
        // The bounds at their edges: each operator keeps or drops the value equal to its bound.
        (#"{"field": "http.status", "gte": 503}"#, ["a"]),
        (#"{"field": "http.status", "gt": 503}"#, []),
        (#"{"field": "http.status", "lte": 200}"#, ["b"]),
        (#"{"field": "http.status", "lt": 200}"#, []),
        (#"{"field": "http.status", "equals": 404}"#, ["c"]),
        (#"{"field": "http.status", "equals": "200"}"#, ["b"]),
        (#"{"field": "dur", "gt": 1}"#, ["a"]),
        (#"{"field": "ok", "equals": false}"#, ["a"]),
        (#"{"field": "user", "equals": null}"#, ["b"]),
        (#"{"field": "user", "exists": true}"#, ["b"]),
        (#"{"field": "user", "exists": false}"#, ["a", "c"]),
        (#"{"field": "http.path", "prefix": "/api"}"#, ["a"]),
        (#"{"field": "http.path", "regex": "^/h"}"#, ["b"]),
        (#"{"field": "note", "equals": "café"}"#, ["c"]),
        (#"{"field": "tags.1", "equals": "y"}"#, ["a"]),
        (#"{"field": "a\\.b", "equals": 1}"#, ["a"]),
        (#"{"field": "http", "contains": "health"}"#, ["b"]),
        (#"{"all": [{"field": "level", "equals": "INFO"}, {"not": {"contains": "z"}}]}"#, ["b"]),
        (#"{"any": [{"field": "level", "equals": "ERROR"}, {"prefix": "c"}]}"#, ["a", "c"]),
        (#"{"not": {"field": "http.status", "lt": 300}}"#, ["a", "c"]),
        (#"{"source": "app"}"#, ["a", "b", "c"]),
        (#"{"regex": "^[ab]$"}"#, ["a", "b"]),
    ])
    func keepsWhatMatches(_ condition: String, _ expected: [String]) throws {
        #expect(try Self.kept(condition) == expected, "\(condition)")
    }

    @Test func filtersExcludeByFieldAndCategoriesComeFromFields() throws {
        let config = try Structured.config(parser: #"{"format": "json"}"#, rest: #"""
            , "parse": {"categories": [{"name": "error", "display": "E", "match": {"field": "level", "equals": "ERROR"}},
                                       {"name": "info", "display": "I", "default": true}],
                        "tags": [{"name": "slow", "display": "S", "match": {"field": "dur", "gt": 1}}]},
              "filters": [{"exclude": {"field": "http.path", "equals": "/health"}}]
            """#)
        let records = try Structured.objects(Self.lines.joined(separator: "\n") + "\n", config: config)
        #expect(records.map { $0["message"] as! String } == ["a", "c"])
        #expect(records.map { $0["category"] as! String } == ["error", "info"])
        #expect(records.map { $0["tags"] as! [String] } == [["slow"], []])
    }

    @Test(arguments: [
        (#"{"outputs": [{"type": "stdout", "where": {"field": "x"}}]}"#,
         "outputs[0].where: needs one of: equals, in, contains, prefix, regex, exists, gt, gte, lt, lte"),
        (#"{"outputs": [{"type": "stdout", "where": {"field": "x", "equals": 1, "in": [1]}}]}"#, "outputs[0].where: give only one of: equals, in"),
        (#"{"outputs": [{"type": "stdout", "where": {"field": "x", "gt": "5"}}]}"#, "outputs[0].where.gt: expected a number, found a string"),
        (#"{"outputs": [{"type": "stdout", "where": {"field": "a..b", "exists": true}}]}"#, "outputs[0].where.field: 'a..b' is not a field path"),
        (#"{"outputs": [{"type": "stdout", "where": {"gte": 500}}]}"#, "outputs[0].where.gte: 'gte' tests a field"),
        (#"{"outputs": [{"type": "stdout", "where": {"all": []}}]}"#, "outputs[0].where.all: needs at least one condition"),
        (#"{"outputs": [{"type": "stdout", "where": {"any": [{"tag": "nope"}]}}]}"#, "outputs[0].where.any[0].tag: unknown tag 'nope'"),
        (#"{"outputs": [{"type": "stdout", "where": {"source": "nope"}}]}"#, "outputs[0].where.source: unknown source 'nope'"),
        (#"{"filters": [{"exclude": {"not": {"regex": "("}}}]}"#, "filters[0].exclude.not.regex: invalid regex"),
        (#"{"parse": {"tags": [{"name": "t", "match": {"category": "info"}}]}}"#,
         "parse.tags[0].match.category: a category's or tag's match cannot test categories"),
        (#"{"outputs": [{"type": "stdout", "where": {"field": "status", "gte": 1}}]}"#,
         "outputs[0].where.field: unknown field 'status': there is no parse.pattern to capture it"),
        (#"{"sources": [{"name": "a", "include": ["x"], "parser": "nope"}]}"#, "sources[0].parser: unknown parser 'nope'"),
        (#"{"parsers": {"p": {"format": "regex"}}}"#, "parsers.p.pattern: required key is missing"),
        (#"{"parsers": {"p": {"format": "yaml"}}}"#, "parsers.p.format: 'yaml' is not one of: regex, json, logfmt, text"),
        (#"{"parsers": {"p": {"format": "json", "pattern": "x"}}}"#, "parsers.p.pattern: only a regex parser takes a pattern"),
        (#"{"parsers": {"p": {"format": "json", "types": {"a": "integer"}}}}"#, "parsers.p.types: only regex and logfmt parsers take types"),
        (#"{"parsers": {"p": {"format": "regex", "pattern": "(?<a>x)", "types": {"b": "integer"}}}}"#,
         "parsers.p.types.b: the pattern has no group named 'b'"),
        (#"{"parsers": {"p": {"format": "json", "timestampFormat": "%Q"}}}"#, "parsers.p.timestampFormat: '%Q' is not supported"),
        (#"{"parsers": {"p": {"format": "regex", "pattern": "x", "messageKey": "m"}}}"#, "parsers.p.messageKey: only json and logfmt parsers take messageKey"),
        (#"{"parsers": {"p": {"format": "json", "multiline": {"continuation": "("}}}}"#, "parsers.p.multiline.continuation: invalid regex"),
    ])
    func badConditionsAndParsersAreNamedByPath(_ json: String, _ expected: String) {
        do {
            _ = try CompiledConfig(json: Array(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.errors.contains { $0.description.hasPrefix(expected) }, "\(error.errors.map(\.description))")
        }
    }
}

/// Rules on regex groups are matched as plain `MatchRule`s when no source reads keys from its lines: the same
/// categories and tags as through the field conditions, on real lines.
struct PlainRuleEquivalenceTests {
    @Test func bothPathsClassifyTheCorporaAlike() throws {
        let config = try Structured.compile(#"""
            {"parse": {"pattern": "^(?<date>\\S+) (?<time>\\S+) (?<pid>\\d+) (?<level>[A-Z]+) (?<component>[^:]+): (?<message>.*)$",
              "categories": [
                {"name": "error", "match": {"field": "level", "regex": "^(ERROR|FATAL|WARN)$"}},
                {"name": "block", "match": {"field": "component", "contains": "Block"}},
                {"name": "name", "match": {"field": "component", "prefix": "dfs.FSNamesystem"}},
                {"name": "served", "match": {"contains": "Served block"}},
                {"name": "info", "default": true}],
              "tags": [
                {"name": "receiving", "match": {"prefix": "Receiving"}},
                {"name": "datanode", "match": {"field": "component", "regex": "DataNode"}},
                {"name": "info", "match": {"field": "level", "contains": "INFO"}}]}}
            """#)
        let plain = config.rules.with(plainRules: true), general = config.rules.with(plainRules: false)
        let corpus = try String(contentsOfFile: LoghubFixture.path("loghub/HDFS_2k.log"), encoding: .utf8)
        var compared = 0, categorized: Set<Int> = []
        for line in corpus.split(whereSeparator: \.isNewline) {  // the file has CRLF line ends
            var a = SpyEntry(file: SourceFile(path: "/h", fingerprint: Fingerprint(value: 1)))
            a.text = Array(line.utf8)
            a.headLength = a.text.count
            var b = a
            plain.classify(&a, readTime: false)
            general.classify(&b, readTime: false)
            #expect(a.category == b.category && a.tags == b.tags, "\(line)")
            categorized.insert(a.category)
            compared += 1
        }
        #expect(compared == 2000 && categorized.count >= 3, "the rules were exercised: categories \(categorized)")
    }
}

/// A file of `Tests/Fixtures`.
enum LoghubFixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }
}
