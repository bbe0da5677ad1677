import Testing
@testable import SpytailCore

/// Every wrong config names the JSON path and the reason.
struct ConfigDecodingTests {
    static let issueExample = #"""
    {
      "sources": [ { "name": "app", "include": ["/var/log/app/*.log"], "exclude": ["*.tmp"],
                     "rotated": true, "startAt": "beginning" } ],
      "checkpoints": "/var/lib/spytail/checkpoints.json",
      "parse": {
        "pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$",
        "timestampFormat": "iso8601",
        "multiline": { "continuation": "^\\s" },
        "maxLineBytes": 1048576,
        "categories": [
          { "name": "error", "display": "🛑", "match": { "field": "level", "regex": "^(ERROR|FATAL)$" } },
          { "name": "debug", "display": "·", "match": { "field": "level", "prefix": "DEBUG" } },
          { "name": "info",  "display": "ℹ️", "default": true } ],
        "tags": [ { "name": "tca", "display": "🏪", "match": { "contains": "[tca]" } } ]
      },
      "integrations": [ { "name": "tca", "ignorablePrefixes": ["Store: heartbeat"] } ],
      "filters": [ { "exclude": { "category": "debug" } }, { "exclude": { "contains": "heartbeat" } },
                   { "exclude": { "integration": "tca" } } ],
      "outputs": [ { "type": "stdout", "format": "text" },
                   { "type": "file", "path": "out/errors.jsonl", "format": "jsonl",
                     "where": { "category": "error" } } ],
      "state": "recording"
    }
    """#

    @Test func decodesTheDocumentedExample() throws {
        let compiled = try CompiledConfig(json: Array(Self.issueExample.utf8))
        let config = compiled.config
        #expect(config.sources == [{
            var s = SpytailConfig.Source(name: "app", include: ["/var/log/app/*.log"])
            s.exclude = ["*.tmp"]
            return s
        }()])
        #expect(config.parse.categories.map(\.name) == ["error", "debug", "info"])
        #expect(config.parse.multiline?.continuation == "^\\s")
        #expect(config.filters == [.category("debug"), .contains("heartbeat"), .integration("tca")])
        #expect(config.outputs[1] == SpytailConfig.Output(destination: .file("out/errors.jsonl"), format: .jsonl,
                                                          whereCondition: .category("error")))
        #expect(compiled.rules.vocabulary.fieldNames == ["level"] + GapVocabulary.fieldNames)
        #expect(config.state == .recording)
    }

    /// (JSON, expected "path: reason" fragment)
    static let structural: [(String, String)] = [
        ("[]", "(top level): expected an object, found an array"),
        (#"{"sources": {}}"#, "sources: expected an array, found an object"),
        (#"{"colour": 1}"#, "colour: unknown key; allowed here: checkpoints, filters, http, integrations, outputs, parse, parsers, sources, state, tail"),
        (#"{"sources": [{"include": ["a"]}]}"#, "sources[0].name: required key is missing"),
        (#"{"sources": [{"name": "a", "include": []}]}"#, "sources[0].include: must name at least one pattern"),
        (#"{"sources": [{"name": "a", "include": [3]}]}"#, "sources[0].include[0]: expected a non-empty string, found a number"),
        (#"{"sources": [{"name": "a", "include": ["x"], "startAt": "middle"}]}"#,
         "sources[0].startAt: 'middle' is not one of: beginning, end"),
        (#"{"parse": {"maxLineBytes": 1.5}}"#, "parse.maxLineBytes: expected a whole number, found a number"),
        (#"{"parse": {"maxLineBytes": 10}}"#, "parse.maxLineBytes: must be between 64 and 1073741824"),
        (#"{"parse": {"timestampFormat": "unix"}}"#, "parse.timestampFormat: 'unix' is not one of iso8601, epoch, epochMillis, epochMicros, epochNanos, auto, none, nor a strptime pattern"),
        (#"{"parse": {"tags": [{"name": "t", "match": {"contains": "a", "prefix": "b"}}]}}"#,
         "parse.tags[0].match: give only one of: contains, prefix"),
        (#"{"parse": {"tags": [{"name": "t", "match": {"regexp": "a"}}]}}"#, "parse.tags[0].match.regexp: unknown key"),
        (#"{"parse": {"tags": [{"name": "t"}]}}"#, "parse.tags[0].match: required key is missing"),
        (#"{"parse": {"categories": [{"name": "c"}]}}"#, #"parse.categories[0]: a category needs a 'match' or "default": true"#),
        (#"{"filters": [{"include": {"tag": "a"}}]}"#, "filters[0].exclude: required key is missing"),
        (#"{"filters": [{"exclude": {"tag": "a", "category": "b"}}]}"#,
         "filters[0].exclude: give only one of: tag, category"),
        (#"{"outputs": [{"type": "kafka"}]}"#, "outputs[0].type: 'kafka' is not one of: stdout, file"),
        (#"{"outputs": [{"type": "file"}]}"#, "outputs[0].path: required key is missing"),
        (#"{"outputs": [{"type": "stdout", "format": "xml"}]}"#, "outputs[0].format: 'xml' is not one of: jsonl, text, logfmt"),
        (#"{"state": true}"#, "state: expected a string, found a boolean"),
        (#"{"http": {"listen": "127.0.0.1:http"}}"#, "http.listen: port 'http' is not a number"),
        (#"{"http": {"listen": "127.0.0.1:70000"}}"#, "http.listen: port 70000 is not between 0 and 65535"),
        (#"{"http": {"listen": "9880"}}"#, "http.listen: '9880' is not HOST:PORT"),
        (#"{"http": {"tokenFile": "t"}}"#, "http.listen: required key is missing"),
        (#"{"http": {"listen": "127.0.0.1:1", "maxViewers": -1}}"#, "http.maxViewers: must be between 0 and 10000"),
        (#"{"http": {"listen": "127.0.0.1:1", "token": "x"}}"#, "http.token: unknown key"),
        (#"{"sources": [}"#, "(top level): invalid JSON"),
    ]

    @Test(arguments: structural)
    func reportsStructuralProblems(_ json: String, _ expected: String) {
        #expect(throws: ConfigErrors.self) { try SpytailConfig.decode(Array(json.utf8)) }
        do {
            _ = try SpytailConfig.decode(Array(json.utf8))
        } catch {
            #expect(error.errors.contains { $0.description.hasPrefix(expected) }, "got: \(error)")
        }
    }

    @Test func reportsEveryProblemAtOnce() {
        let json = #"{"sources": [{"name": 1, "include": ["x"]}], "parse": {"maxLineBytes": "big"}, "extra": 0}"#
        do {
            _ = try SpytailConfig.decode(Array(json.utf8))
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.map(\.path.description) == ["sources[0].name", "parse.maxLineBytes", "extra"])
        }
    }
}

/// A mistyped required key must not turn its siblings into "unknown keys" (the fresh-clone issue's example).
struct ConfigSiblingKeyTests {
    static let cases: [(String, [String])] = [
        (#"{"sources":[{"name":"a","include":"x.log","rotated":true,"startAt":"end","exclude":[]}]}"#,
         ["sources[0].include: expected an array, found a string"]),
        (#"{"sources":[{"name":1,"include":["x"],"rotated":"yes","startAt":"middle","exclude":[2],"colour":1}]}"#,
         ["sources[0].name: expected a string, found a number",
          "sources[0].exclude[0]: expected a non-empty string, found a number",
          "sources[0].rotated: expected a boolean, found a string",
          "sources[0].startAt: 'middle' is not one of: beginning, end",
          "sources[0].colour: unknown key; allowed here: exclude, followSymlinks, include, name, olddir, parser, pathFields, pathFieldsKey, rotated, rotatedPattern, startAt"]),
        (#"{"parse":{"tags":[{"name":"t","match":{"contains":1,"field":"level","regexp":"a"}}]}}"#,
         ["parse.tags[0].match.contains: expected a string, found a number",
          "parse.tags[0].match.regexp: unknown key; allowed here: all, any, category, contains, equals, exists, field, gt, gte, in, integration, lt, lte, not, prefix, regex, source, tag"]),
        (#"{"outputs":[{"type":"file","format":"xml","where":{"category":1}}]}"#,
         ["outputs[0].path: required key is missing", "outputs[0].format: 'xml' is not one of", "outputs[0].where.category: expected a string"]),
        (#"{"outputs":[{"type":"clickhouse","url":"ftp://h","table":"1x","database":"a-b","batchMaxRecords":0,"format":"jsonl"}]}"#,
         ["outputs[0].url: 'ftp://h' is not an http:// or https:// address",
          "outputs[0].format: unknown key; allowed here: batchMaxMs, batchMaxRecords, bufferMaxRecords, caFile, createTable, database, insertFormat, passwordFile"]),
        (#"{"outputs":[{"type":"clickhouse","url":"http://h:8123","table":"1x","database":"a-b","batchMaxRecords":0,"batchMaxMs":10}]}"#,
         ["outputs[0].table: '1x' must be letters, digits and '_'", "outputs[0].database: 'a-b' must be letters",
          "outputs[0].batchMaxRecords: must be between 1 and 1000000"]),
        (#"{"outputs":[{"type":"clickhouse","url":"http://h:8123","batchMaxRecords":10,"bufferMaxRecords":5}]}"#,
         ["outputs[0].bufferMaxRecords: must be at least batchMaxRecords (10)"]),
        (#"{"outputs":[{"type":"clickhouse"}]}"#, ["outputs[0].url: required key is missing"]),
        (#"{"outputs":[{"type":"clickhouse","url":"http://h:8123","caFile":"ca.pem"}]}"#, ["outputs[0].caFile: only with an https:// url"]),
    ]

    @Test func decodesAClickHouseOutput() throws {
        let config = try SpytailConfig.decode(Array(#"""
            {"outputs":[{"type":"clickhouse","url":"https://ch.example:8443/","database":"logs","table":"app_1","user":"spy",
              "passwordFile":"ch.secret","caFile":"ca.pem","createTable":true,"batchMaxRecords":500,"batchMaxMs":250,"where":{"category":"error"}}]}
            """#.utf8))
        guard case .clickhouse(let ch) = config.outputs[0].destination else {
            Issue.record("not a clickhouse output: \(config.outputs[0])")
            return
        }
        #expect(ch.url == "https://ch.example:8443")
        #expect(ch.database == "logs" && ch.table == "app_1" && ch.user == "spy" && ch.passwordFile == "ch.secret" && ch.caFile == "ca.pem")
        #expect(ch.createTable && ch.batchMaxRecords == 500 && ch.batchMaxMs == 250)
        #expect(ch.bufferMaxRecords == 100_000 && ch.shutdownTimeoutMs == 10_000)
        #expect(config.outputs[0].whereCondition == .category("error"))
        #expect(ch.name == "clickhouse https://ch.example:8443 logs.app_1")
    }

    /// Batches of 50,000 rows and a buffer of two of them by default; a buffer given alone gets batches of
    /// half of it; a batch given alone gets a buffer of at least two.
    @Test(arguments: [
        (#""#, 50_000, 100_000), (#","bufferMaxRecords":20000"#, 10_000, 20_000), (#","batchMaxRecords":80000"#, 80_000, 160_000),
        (#","batchMaxRecords":1000,"bufferMaxRecords":1000"#, 1_000, 1_000),
    ])
    func clickHouseBatchAndBufferDefaults(_ keys: String, _ batch: Int, _ buffer: Int) throws {
        let config = try SpytailConfig.decode(Array(#"{"outputs":[{"type":"clickhouse","url":"http://h:8123"\#(keys)}]}"#.utf8))
        guard case .clickhouse(let ch) = config.outputs[0].destination else {
            Issue.record("not a clickhouse output")
            return
        }
        #expect(ch.batchMaxRecords == batch && ch.bufferMaxRecords == buffer)
        #expect(ch.insertFormat == .tabSeparated)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8123", "http://127.0.0.1:8123"), ("http://h", "http://h:80"), ("https://h/", "https://h:443"),
        ("http://[::1]:9", "http://[::1]:9"), ("http://h:0", nil), ("http://h/db", nil), ("http://u:p@h", nil), ("h:80", nil),
        ("http://", nil), ("http://h:x", nil),
    ])
    func httpEndpoints(_ text: String, _ expected: String?) {
        #expect(HTTPEndpoint(text)?.description == expected)
    }

    @Test(arguments: cases)
    func everyRealProblemOnceAndNothingElse(_ json: String, _ expected: [String]) {
        do {
            _ = try SpytailConfig.decode(Array(json.utf8))
            Issue.record("expected errors")
        } catch {
            let got = error.errors.map(\.description)
            #expect(got.count == expected.count, "got: \(got)")
            for line in expected { #expect(got.contains { $0.hasPrefix(line) }, "missing \(line); got: \(got)") }
        }
    }
}
