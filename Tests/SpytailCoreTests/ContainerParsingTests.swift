import Foundation
import Testing
@testable import SpytailCore
import SpytailTestSupport

/// `cri` and `docker` parsers through the pipeline: the inner parser's fields and timestamp, the envelope's
/// stream, time and attrs, refused lines, `pathFields`, and the config's checks.
struct ContainerParsingTests {
    static let rules = #"""
    , "parse": {"categories": [
        {"name": "error", "display": "E", "match": {"any": [{"field": "level", "equals": "error"}, {"field": "stream", "equals": "stderr"}]}},
        {"name": "info", "display": "I", "default": true}]}
    """#

    static func config(_ parser: String, inner: String = "", source: String = "") throws -> CompiledConfig {
        try Structured.compile(#"""
        {"sources": [{"name": "pods", "include": ["*.log"], "parser": "c"\#(source)}],
         "parsers": {"c": \#(parser)\#(inner)}\#(rules)}
        """#)
    }

    @Test func anAppsJSONInsideCRIKeepsItsFieldsAndTimestamp() throws {
        let config = try Self.config(#"{"format": "cri", "inner": "app"}"#, inner: #", "app": {"format": "json"}"#)
        let log = """
        2026-11-25T12:00:00.5Z stdout F {"time":"2026-11-25T11:59:59.9Z","level":"error","msg":"own time","http":{"status":503}}
        2026-11-25T12:00:01Z stdout P {"level":"info",
        2026-11-25T12:00:02Z stdout F "msg":"no time of its own"}
        2026-11-25T12:00:03Z stderr F not json at all

        """
        let records = try Structured.objects(log, config: config)
        #expect(records.count == 3)
        #expect(records[0]["message"] as? String == "own time")
        #expect(records[0]["timestamp"] as? String == "2026-11-25T11:59:59.9Z", "the app's own timestamp wins")
        #expect(records[0]["category"] as? String == "error")
        let fields = try #require(records[0]["fields"] as? [String: Any])
        #expect(fields["stream"] as? String == "stdout")
        #expect((fields["http"] as? [String: Any])?["status"] as? Int == 503)
        #expect(records[1]["message"] as? String == "no time of its own")
        #expect(records[1]["timestamp"] as? String == "2026-11-25T12:00:01Z", "else the runtime's time of the first part")
        #expect(records[2]["message"] as? String == "not json at all")
        #expect(records[2]["parseError"] as? String == "json: not an object at byte 0")
        #expect(records[2]["category"] as? String == "error", "stream is a field conditions test")
    }

    @Test func theTimeOfEitherOriginIsReadInItsOwnFormat() throws {
        let config = try Self.config(#"{"format": "cri", "inner": "app"}"#,
                                     inner: #", "app": {"format": "json", "timestampFormat": "%d/%m/%Y %H:%M:%S"}"#)
        let log = """
        2026-11-25T12:00:00.25+00:00 stdout F {"time":"24/11/2026 08:00:00","msg":"a"}
        2026-11-25T12:00:00.25+01:00 stdout F {"msg":"b"}

        """
        let entries = try Structured.entries(log, config: config)
        let times = entries.map { entry in
            entry.text.withUnsafeBufferPointer { text in config.rules.parser(forSource: 0).timestampFormat(of: entry).parse(UnsafeBufferPointer(rebasing: text[entry.timestamp!])) }
        }
        #expect(times == [TimestampParser.iso8601("2026-11-24T08:00:00Z"), TimestampParser.iso8601("2026-11-25T11:00:00.25Z")])
    }

    @Test func aDockerLinesAttrsAndStreamAreFieldsAndItsTextTheMessage() throws {
        let config = try Self.config(#"{"format": "docker"}"#)
        let log = #"{"log":"GET /a \u0026 b\n","stream":"stdout","attrs":{"tag":"web"},"time":"2026-11-25T12:00:00.123Z"}"# + "\n"
        let record = try #require(Structured.objects(log, config: config).first)
        #expect(record["message"] as? String == "GET /a & b")
        #expect(record["timestamp"] as? String == "2026-11-25T12:00:00.123Z")
        let fields = try #require(record["fields"] as? [String: Any])
        #expect((fields["attrs"] as? [String: Any])?["tag"] as? String == "web")
        #expect(fields["stream"] as? String == "stdout")
        let text = try Structured.records(log, config: config, format: .text)
        #expect(text.first?.contains("GET /a & b stream=stdout attrs.tag=web") == true, "\(text)")
        // Tabs between the attrs' members (JSON whitespace, kept as written): the envelope still tells the attrs
        // from the time that follows them.
        let tabbed = "{\"log\":\"x\\n\",\"stream\":\"stderr\",\"attrs\":{\"tag\":\t\"web\",\t\"env\":\"a\\tb\"},\"time\":\"2026-11-25T12:00:01Z\"}\n"
        let other = try #require(Structured.objects(tabbed, config: config).first)
        #expect(other["timestamp"] as? String == "2026-11-25T12:00:01Z")
        let otherFields = try #require(other["fields"] as? [String: Any])
        #expect(otherFields["stream"] as? String == "stderr")
        #expect((otherFields["attrs"] as? [String: Any])?["env"] as? String == "a\tb", "\(otherFields)")
    }

    @Test func aLineNotInTheRuntimesFormatFlowsWithItsProblem() throws {
        let config = try Self.config(#"{"format": "cri"}"#)
        let records = try Structured.objects("2026-11-25T12:00:00Z stdout F fine\nsomething else\n", config: config)
        #expect(records.map { $0["message"] as? String } == ["fine", "something else"])
        #expect(records[1]["parseError"] as? String == "cri: no valid RFC 3339 time at byte 0")
        #expect(records[1]["timestamp"] is NSNull)
    }

    @Test func pathFieldsGiveEveryEntryItsPodsFields() throws {
        let pattern = #"^/var/log/pods/(?<namespace>[^_/]+)_(?<pod>[^_/]+)_(?<pod_uid>[^/]+)/(?<container>[^/]+)/(?<restart>\\d+)\\.log"#
        let config = try Structured.compile(#"""
        {"sources": [{"name": "pods", "include": ["/var/log/pods/*/*/*.log"], "parser": "c", "pathFields": "\#(pattern)", "pathFieldsKey": "k8s"}],
         "parsers": {"c": {"format": "cri"}},
         "outputs": [{"type": "stdout", "where": {"field": "k8s.namespace", "equals": "shop"}}]}
        """#)
        let sink = RecordingEntrySink()
        let pipeline = EntryPipeline(rules: config.rules, continuation: nil, maxLineBytes: 1 << 20, filters: [],
                                     routes: [.init(condition: config.outputConditions[0], sink: sink)])
        for path in ["/var/log/pods/shop_web-7d9_0f1e-22/app/3.log.20261125-120000.gz", "/var/log/pods/kube-system_dns_ab/coredns/0.log", "/elsewhere/x.log"] {
            var stream = pipeline.makeStream(for: SourceFile(path: path, fingerprint: Fingerprint(value: 1), source: 0))
            try Array("2026-11-25T12:00:00Z stdout F from \(path)\n".utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
                try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
            }
        }
        #expect(sink.entries.count == 1, "only the shop namespace's entry passes the where")
        let formatter = JSONLinesFormatter(vocabulary: config.rules.vocabulary)
        let entry = try #require(sink.entries.first)
        let out = OutputBuffer()
        entry.text.withUnsafeBufferPointer { formatter.format(entry, text: $0, into: out) }
        let record = String(decoding: out.array, as: UTF8.self)
        #expect(record.contains(#""k8s":{"namespace":"shop","pod":"web-7d9","pod_uid":"0f1e-22","container":"app","restart":"3"}"#), "\(record)")
    }

    static let rejected: [(String, String)] = [
        (#"{"parsers": {"c": {"format": "cri", "inner": "nope"}, "j": {"format": "json"}}}"#, "parsers.c.inner: unknown parser 'nope'; known: j"),
        (#"{"parsers": {"c": {"format": "cri", "inner": "d"}, "d": {"format": "docker"}}}"#, "parsers.c.inner: 'd' is a docker parser itself"),
        (#"{"parsers": {"c": {"format": "cri", "inner": "j"}, "j": {"format": "json", "multiline": {"continuation": "^\\s"}}}}"#,
         "parsers.c.inner: 'j' has a multiline rule; give it to 'c'"),
        (#"{"parsers": {"j": {"format": "json", "inner": "x"}}}"#, "parsers.j.inner: only a cri or docker parser takes an inner parser"),
        (#"{"parsers": {"c": {"format": "cri", "timestampFormat": "epoch"}}}"#, "parsers.c.timestampFormat: a cri parser reads the runtime's RFC 3339 time"),
        (#"{"parsers": {"c": {"format": "docker", "messageKey": "log"}}}"#, "parsers.c.messageKey: a docker parser takes the runtime's time and text"),
        (#"{"sources": [{"name": "s", "include": ["a"], "pathFields": "/pods/[^/]+"}]}"#, "sources[0].pathFields: needs named groups"),
        (#"{"sources": [{"name": "s", "include": ["a"], "pathFields": "(?<a>"}]}"#, "sources[0].pathFields: invalid regex"),
        (#"{"sources": [{"name": "s", "include": ["a"], "pathFieldsKey": "k8s"}]}"#, "sources[0].pathFieldsKey: only a source with pathFields takes pathFieldsKey"),
        (#"{"sources": [{"name": "s", "include": ["a"], "pathFields": "(?<a>x)", "pathFieldsKey": "k.8"}]}"#, "sources[0].pathFieldsKey: 'k.8' must be one key"),
        (#"{"sources": [{"name": "s", "include": ["a"], "pathFields": "(?<ns>x)", "pathFieldsKey": "k8s"}], "outputs": [{"type": "file", "path": "o/{k8s.pod}.jsonl"}]}"#,
         "outputs[0].path: {k8s.pod} is not a placeholder; known: source, k8s.ns"),
        (#"{"outputs": [{"type": "file", "path": "o/{source.jsonl"}]}"#, "outputs[0].path: a { without its }"),
    ]

    @Test func anOutputPathNamesOneFilePerSourceAndPathField() throws {
        let sources = try Structured.compile(#"""
            {"sources": [{"name": "pods", "include": ["/var/log/pods/*/*/*.log"], "pathFieldsKey": "k8s",
                          "pathFields": "^/var/log/pods/(?<namespace>[^_/]+)_(?<pod>[^_/]+)_"},
                         {"name": "app", "include": ["/a/*.log"]}],
             "outputs": [{"type": "file", "path": "/out/{k8s.namespace}/{source}-{k8s.pod}.jsonl"}]}
            """#).config.sources
        let template = SourcePathTemplate("/out/{k8s.namespace}/{source}-{k8s.pod}.jsonl", sources: sources)
        let file = { (path: String, source: Int) in SourceFile(path: path, fingerprint: Fingerprint(value: 1), source: source) }
        #expect(template.path(for: file("/var/log/pods/shop_web-1_u/app/0.log", 0)) == "/out/shop/pods-web-1.jsonl")
        #expect(template.path(for: file("/var/log/pods/shop_web-1_u/app/0.log.20261125-120000.gz", 0)) == "/out/shop/pods-web-1.jsonl")
        #expect(template.path(for: file("/elsewhere/x.log", 0)) == "/out/unnamed/pods-unnamed.jsonl", "no match: unnamed")
        #expect(template.path(for: file("/a/x.log", 1)) == "/out/unnamed/app-unnamed.jsonl", "a source without pathFields")
        #expect(template.path(for: file("/cli.log", SourceFile.unnamed)) == "/out/unnamed/unnamed-unnamed.jsonl")
        #expect(SourcePathTemplate.fileName("..") == "_" && SourcePathTemplate.fileName("a/b") == "a_b")
    }

    @Test(arguments: rejected)
    func aBadContainerConfigIsRefusedWithItsPath(_ json: String, _ expected: String) {
        CompiledConfigTests().rejects(json, expected)
    }
}

/// Rules on a regex inner parser's groups stay on the plain path beside a container's keyed fields, and
/// classify as the general path does.
struct ContainerPlainRuleTests {
    static let config = #"""
        {"sources": [{"name": "pods", "include": ["*.log"], "parser": "c", "pathFields": "/(?<ns>[a-z]+)/", "pathFieldsKey": "k8s"}],
         "parsers": {"c": {"format": "cri", "inner": "app"},
                     "app": {"format": "regex", "pattern": "^(?<level>[A-Z]+) (?<message>.*)$"}},
         "parse": {"categories": [{"name": "error", "match": {"field": "level", "prefix": "ERROR"}},
                                  {"name": "noisy", "match": {"all": [{"field": "stream", "equals": "stderr"}, {"field": "k8s.ns", "equals": "shop"}]}},
                                  {"name": "info", "default": true}]}}
        """#

    @Test func theyAreMatchedPlainlyAndAgreeWithTheGeneralPath() throws {
        let compiled = try Structured.compile(Self.config)
        #expect(compiled.rules.categoryProbes.first?.matchesPlainly == true, "level is a regex group: the plain path")
        let log = "2026-11-25T12:00:00Z stdout F ERROR boom\n2026-11-25T12:00:00Z stderr F WARN slow\n2026-11-25T12:00:00Z stdout F INFO ok\n"
        for plain in [true, false] {
            let rules = compiled.rules.with(plainRules: plain)
            let sink = RecordingEntrySink()
            let pipeline = EntryPipeline(rules: rules, continuation: nil, maxLineBytes: 1 << 20, filters: [], routes: [.init(condition: nil, sink: sink)])
            var stream = pipeline.makeStream(for: SourceFile(path: "/shop/x.log", fingerprint: Fingerprint(value: 1), source: 0))
            try Array(log.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
                try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
            }
            let names = sink.entries.map { rules.vocabulary.categories[$0.category].name }
            #expect(names == ["error", "noisy", "info"], "plain \(plain): \(names)")
        }
        let clash = try Structured.compile(Self.config.replacingOccurrences(of: "(?<level>", with: "(?<stream>")
            .replacingOccurrences(of: #""field": "level""#, with: #""field": "stream""#))
        #expect(clash.rules.categoryProbes.first?.matchesPlainly == false, "a group named like a keyed field: the general path")
    }
}
