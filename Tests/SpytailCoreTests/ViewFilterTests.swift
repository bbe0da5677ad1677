import Testing
@testable import SpytailCore
import SpytailTestSupport

/// A viewer's filters on what the tap kept (records and messages, not entries): the config's conditions,
/// written `MODE:VALUE` or as JSON, on fields, sources, categories and text, to include or to exclude.
struct ViewFilterTests {
    static let config = #"""
        {"sources": [{"name": "app", "include": ["*.json"], "parser": "app"},
                     {"name": "web", "include": ["*.log"], "parser": "web"}],
         "parsers": {"app": {"format": "json"},
                     "web": {"format": "regex", "pattern": "^(?<status>\\d{3}) (?<message>.*)$", "types": {"status": "integer"}}},
         "parse": {"categories": [{"name": "error", "match": {"any": [{"field": "level", "equals": "ERROR"}, {"field": "status", "gte": 500}]}},
                                  {"name": "debug", "match": {"field": "level", "equals": "DEBUG"}},
                                  {"name": "info", "default": true}],
                   "tags": [{"name": "slow", "match": {"field": "http.ms", "gt": 1000}}]}}
        """#

    static let app = """
        {"level": "INFO", "msg": "served", "http": {"status": 200, "ms": 12}, "user": {"name": "ann"}}
        {"level": "ERROR", "msg": "failed", "http": {"status": 503, "ms": 2400}, "retry": true}
        {"level": "DEBUG", "msg": "cache a.b", "http": {"status": 304, "ms": 1}, "labels": {"a.b": "dotted"}}
        this line is not JSON

        """
    static let web = """
        404 GET /missing
        502 GET /upstream

        """

    /// The messages a viewer with these parameters sees, oldest first.
    /// `viewedUnder`: the config the filter is compiled against (the one the entries were read under if nil).
    func shown(include: [String] = [], exclude: [String] = [], query: String? = nil, viewedUnder: String? = nil) throws -> [String] {
        let compiled = try Structured.compile(Self.config)
        let tap = RecentTap(vocabulary: compiled.rules.vocabulary, capacity: 100)
        for (source, text) in [(0, Self.app), (1, Self.web)] {
            let pipeline = EntryPipeline(config: compiled, sinks: [RecordingEntrySink()], window: nil)
            pipeline.tap = tap
            let file = SourceFile(path: "/logs/\(source)", fingerprint: Fingerprint(value: UInt64(source + 1)), source: source)
            var stream = pipeline.makeStream(for: file)
            try Array(text.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
                try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
            }
            try stream.finish { (entry) throws(SinkError) in try pipeline.process(&entry) }
            try pipeline.flush()
        }
        let batch = try #require(tap.take().batch)
        let context = try viewedUnder.map { ViewContext(try Structured.compile($0)) } ?? ViewContext(compiled)
        let filter = try ViewFilter.compile(includes: include, excludes: exclude, query: query, context: context)
        return (0..<batch.count).filter { filter.shows(RecentEntry(batch: batch, index: $0)) }
            .map { String(decoding: batch.message($0), as: UTF8.self) }
    }

    static let all = ["served", "failed", "cache a.b", "this line is not JSON", "GET /missing", "GET /upstream"]

    @Test func noConditionShowsEverything() throws {
        #expect(try shown() == Self.all)
    }

    @Test func fieldConditionsReadTheRecordsTypedFields() throws {
        #expect(try shown(include: [#"{"field": "http.status", "gte": 500}"#]) == ["failed"])
        #expect(try shown(include: [#"{"field": "status", "gte": 500}"#]) == ["GET /upstream"], "a typed regex group")
        #expect(try shown(exclude: [#"{"field": "http.status", "in": [200, 304]}"#]) == Self.all.filter { $0 != "served" && $0 != "cache a.b" })
        #expect(try shown(include: [#"{"field": "retry", "equals": true}"#]) == ["failed"])
        #expect(try shown(include: [#"{"field": "user.name", "equals": "ann"}"#]) == ["served"])
        #expect(try shown(include: [#"{"field": "labels.a\\.b", "exists": true}"#]) == ["cache a.b"], "a key holding a dot")
        #expect(try shown(include: [#"{"field": "http", "exists": false}"#]) == ["this line is not JSON", "GET /missing", "GET /upstream"])
        #expect(try shown(include: [#"{"field": "level", "regex": "^(ERR|DEB)"}"#]) == ["failed", "cache a.b"])
    }

    @Test func sourcesAreFilterableLikeCategories() throws {
        #expect(try shown(exclude: ["source:app"]) == ["GET /missing", "GET /upstream"])
        #expect(try shown(include: [#"{"source": "app"}"#], exclude: ["category:debug"]) == ["served", "failed", "this line is not JSON"])
    }

    /// A stream's filter outlives a reload that reorders sources: entries read before it still match by name.
    @Test func aSourceIsMatchedByNameAcrossAReloadThatReordersSources() throws {
        let reordered = Self.config.replacing(#"{"name": "app", "include": ["*.json"], "parser": "app"},"#, with: "")
            .replacing(#""parser": "web"}],"#, with: #""parser": "web"}, {"name": "app", "include": ["*.json"], "parser": "app"}],"#)
        let (web, app) = (reordered.firstRange(of: #""name": "web""#)!, reordered.firstRange(of: #""name": "app""#)!)
        #expect(web.lowerBound < app.lowerBound, "web comes first now: \(reordered)")
        #expect(try shown(include: ["source:web"], viewedUnder: reordered) == ["GET /missing", "GET /upstream"])
        #expect(try shown(exclude: ["source:web"], viewedUnder: reordered) == ["served", "failed", "cache a.b", "this line is not JSON"])
        let renamed = Self.config.replacing(#""name": "web""#, with: #""name": "nginx""#)
        #expect(try shown(include: ["source:nginx"], viewedUnder: renamed) == [], "a source renamed since is not the same source")
    }

    /// The same for categories and tags: a filter compiled after a reload reads older entries by name.
    @Test func categoriesAndTagsAreMatchedByNameAcrossAReloadThatReordersThem() throws {
        let debug = #"{"name": "debug", "match": {"field": "level", "equals": "DEBUG"}},"#
        let reordered = Self.config.replacing(debug, with: "")
            .replacing(#""categories": ["#, with: #""categories": [\#(debug) {"name": "audit", "match": {"contains": "audit"}}, "#)
            .replacing(#""tags": ["#, with: #""tags": [{"name": "first", "match": {"contains": "zzz"}}, "#)
        #expect(reordered.firstRange(of: "audit") != nil && reordered.firstRange(of: #""name": "first""#) != nil)
        #expect(try shown(include: ["category:error"], viewedUnder: reordered) == ["failed", "GET /upstream"])
        #expect(try shown(exclude: ["category:debug", "category:info"], viewedUnder: reordered) == ["failed", "GET /upstream"])
        #expect(try shown(include: ["category:audit"], viewedUnder: reordered) == [], "no entry was read as audit")
        #expect(try shown(include: ["tag:slow"], viewedUnder: reordered) == ["failed"])
        #expect(try shown(include: ["tag:first"], viewedUnder: reordered) == [])
        let renamed = Self.config.replacing(#""name": "error""#, with: #""name": "failure""#)
        #expect(try shown(include: ["category:failure"], viewedUnder: renamed) == [], "a category renamed since is not the same one")
        #expect(try shown(exclude: ["category:info", "category:debug"], viewedUnder: renamed) == ["failed", "GET /upstream"],
                "an entry whose category is gone is not hidden by another's")
    }

    @Test func includesAllMustHoldAndExcludesAnyHides() throws {
        let errors = #"{"category": "error"}"#
        #expect(try shown(include: [errors]) == ["failed", "GET /upstream"])
        #expect(try shown(include: [errors, "source:web"]) == ["GET /upstream"])
        #expect(try shown(include: [errors], exclude: ["source:web"]) == ["failed"])
        #expect(try shown(include: [#"{"any": [{"tag": "slow"}, {"field": "status", "lt": 500}]}"#]) == ["failed", "GET /missing"])
        #expect(try shown(include: [#"{"not": {"contains": "GET"}}"#], query: "a") == ["failed", "cache a.b"])
        #expect(try shown(include: [#"{"not": {"contains": "GET"}}"#], query: "i") == ["failed", "this line is not JSON"])
    }

    @Test func theSeedsModesKeepTheirMeaning() throws {
        #expect(try shown(exclude: ["category:debug", "prefix:GET /m", "contains:JSON"]) == ["served", "failed", "GET /upstream"])
        #expect(try shown(exclude: ["tag:slow"]) == Self.all.filter { $0 != "failed" })
    }

    @Test func aBadConditionIsNamedWithWhatIsWrong() throws {
        func problem(include: [String] = [], exclude: [String] = []) -> String {
            do {
                _ = try shown(include: include, exclude: exclude)
                return "compiled"
            } catch let error as ViewFilterError {
                return error.description
            } catch { return "\(error)" }
        }
        #expect(problem(exclude: ["colour:red"]).hasPrefix("exclude=colour:red: unknown mode 'colour'"))
        #expect(problem(exclude: ["source:nope"]) == "exclude=source:nope: exclude.source: unknown source 'nope'; known: app, web")
        #expect(problem(include: [#"{"field": "http.status", "gt": "x"}"#]).contains("include.gt: expected a number, found a string"))
        #expect(problem(include: [#"{"field": "a", "colour": 1}"#]).contains("include.colour: unknown key"))
        #expect(problem(include: [#"{"field": "a""#]).hasPrefix(#"include={"field": "a": "#))
        #expect(problem(include: [#"{"all": [{"category": "nope"}]}"#]).contains("include.all[0].category: unknown category 'nope'"))
        #expect(problem(include: [#"{"regex": "("}"#]).contains("include.regex: invalid regex"))
    }
}
