import HTTPTypes
import Hummingbird
import SpytailCore
import SpytailIO

/// The history API's answers. Windows are `from=` and `to=` (RFC 3339, or milliseconds since the Unix epoch;
/// `to` is exclusive), searches `q=` (smart case) or `regex=`, conditions `include=`/`exclude=` as for `run`.
extension ExploreFace {
    /// `/api/info`: mode, rows, time span, files, and the config's words (categories, tags, sources).
    static func info(_ explorer: Explorer) -> Response {
        explorer.withIndex { index in info(explorer, index) }
    }

    private static func info(_ explorer: Explorer, _ index: HistoryIndex) -> Response {
        var json = JSONText()
        json.object { o in
            o.field("mode", "history")
            o.field("following") { j in j.array(explorer.following) { j, path in j.string(path) } }
            o.field("version", BuildInfo.version)
            o.field("entries", Int64(index.count))
            o.field("first", index.span.map { Int64($0.lowerBound / 1_000_000) }.map(Double.init))
            o.field("last", index.span.map { Int64($0.upperBound / 1_000_000) }.map(Double.init))
            o.field("files") { j in
                j.array(index.files.indices) { j, file in
                    j.object { f in
                        f.field("path", index.files[file].path)
                        f.field("bytes", index.fileSizes[file])
                        f.field("entries", Int64(index.rowsByFile[file].count))
                    }
                }
            }
            o.field("categories") { j in
                j.array(explorer.context.vocabulary.categories) { j, label in
                    j.object { c in
                        c.field("name", label.name)
                        c.field("display", label.display)
                        c.field("color", label.color)
                    }
                }
            }
            o.field("tags") { j in j.array(explorer.context.vocabulary.tags) { j, label in j.object { t in t.field("name", label.name) } } }
            o.field("sources") { j in j.array(explorer.context.config.sources) { j, source in j.object { s in s.field("name", source.name) } } }
        }
        return HTTPFace.json(.ok, json)
    }

    /// `/api/entries?from&to&q|regex&include&exclude&after&limit`: a page of records, oldest first. Headers:
    /// `X-Spytail-Total` (matches in the window) when the search went through the whole window, else
    /// `X-Spytail-Counted` (matches found so far: a search reads only as far as the page needs; `/api/count`
    /// gives the total), `X-Spytail-Next` (the `after=` of the next page, if any), `X-Spytail-Last` (the row of
    /// the page's last entry: with `--follow`, `after=` it asks for the entries that joined since),
    /// `X-Spytail-Unreadable` (entries of the page left out: their file was moved, replaced or deleted since).
    static func entries(_ explorer: Explorer, _ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        let limit = try number(parameters, "limit", default: 200, in: 0...maxPage)
        let after = try parameters["after"].map { text -> Int in
            guard let row = Int(text), row >= -1 else { throw ExploreError("after=\(text): expected a row number from X-Spytail-Next") }
            return row
        }
        let page = try explorer.page(try query(parameters), after: after, limit: limit)
        var json = JSONText()
        json.array(page.records) { j, record in j.raw(record[...]) }
        var response = HTTPFace.json(.ok, json)
        response.headers[HTTPField.Name(page.complete ? "X-Spytail-Total" : "X-Spytail-Counted")!] = String(page.total)
        if let next = page.next { response.headers[HTTPField.Name("X-Spytail-Next")!] = String(next) }
        if let last = page.last { response.headers[HTTPField.Name("X-Spytail-Last")!] = String(last) }
        if page.unreadable > 0 { response.headers[HTTPField.Name("X-Spytail-Unreadable")!] = String(page.unreadable) }
        return response
    }

    /// `/api/count?from&to&…`: `{"total": N}`, the matches in the window (the search goes through all of it).
    static func count(_ explorer: Explorer, _ request: Request) throws -> Response {
        let total = try explorer.count(try query(request.uri.queryParameters))
        return HTTPFace.json(.ok, #"{"total":\#(total)}"#)
    }

    /// `/api/download`: every record of the view as jsonl (a file to save), streamed a page at a time: a view of
    /// millions of entries costs a page of memory, not the file. A bad query is a 400 before anything is sent.
    static func download(_ explorer: Explorer, _ request: Request) throws -> Response {
        let query = try query(request.uri.queryParameters)
        let first = try explorer.page(query, after: nil, limit: maxPage)
        var response = Response(status: .ok, body: ResponseBody { writer in
            var page = first
            while true {
                var buffer = ByteBuffer()
                for record in page.records {
                    buffer.writeBytes(record)
                    buffer.writeInteger(UInt8(0x0A))
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
                guard let next = page.next else { break }
                page = try explorer.page(query, after: next, limit: maxPage)
            }
            try await writer.finish(nil)
        })
        response.headers[.contentType] = "application/x-ndjson"
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.contentDisposition] = #"attachment; filename="spytail-explore.jsonl""#
        return response
    }

    /// `/api/histogram?from&to&buckets&…`: `{"start": ms, "width": ms, "categories": [names], "counts": [[n per category] per bucket]}`.
    static func histogram(_ explorer: Explorer, _ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        let buckets = try number(parameters, "buckets", default: 120, in: 1...2000)
        let histogram = try explorer.histogram(try query(parameters), buckets: buckets)
        var json = JSONText()
        json.object { o in
            o.field("start", histogram.start / 1_000_000)
            o.field("width", histogram.width / 1_000_000)
            o.field("total", Int64(histogram.total))
            o.field("categories") { j in j.array(explorer.categoryNames) { j, name in j.string(name) } }
            o.field("counts") { j in j.array(histogram.counts) { j, row in j.array(row) { j, n in j.number(Int64(n)) } } }
        }
        return HTTPFace.json(.ok, json)
    }

    /// `/api/facets?from&to&…`: entries of the view per category, tag, source and file, most first; with
    /// `field=PATH`, also the top values of that parsed field in a sample of the view (`sample=`, 5,000 by default).
    static func facets(_ explorer: Explorer, _ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        let view = try query(parameters)
        let facets = try explorer.facets(view)
        let field = try parameters["field"].map { (path) throws -> (String, Explorer.FieldValues) in
            (String(path), try explorer.topValues(view, field: String(path), sample: try number(parameters, "sample", default: 5000, in: 1...100_000)))
        }
        let vocabulary = explorer.context.vocabulary
        let sources = explorer.context.config.sources.map(\.name)
        let files = explorer.withIndex { $0.files.map(\.path) }
        func name(_ list: [String], _ i: Int) -> String { list.indices.contains(i) ? list[i] : "-" }
        let groups: [(String, [Int: Int], (Int) -> String)] = [
            ("category", facets.categories, { name(vocabulary.categories.map(\.name), $0) }),
            ("tag", facets.tags, { name(vocabulary.tags.map(\.name), $0) }),
            ("source", facets.sources, { $0 < 0 ? "-" : name(sources, $0) }),
            ("file", facets.files, { name(files, $0) }),
        ]
        var json = JSONText()
        json.object { o in
            o.field("entries", Int64(facets.rows))
            if let (path, top) = field {
                o.field("field") { j in
                    j.object { f in
                        f.field("path", path)
                        f.field("sampled", Int64(top.sampled))
                        f.field("missing", Int64(top.missing))
                        f.field("values") { j in
                            j.array(top.values) { j, value in
                                j.object { v in
                                    v.field("value", value.value)
                                    v.field("count", Int64(value.count))
                                }
                            }
                        }
                    }
                }
            }
            for (field, counts, label) in groups {
                o.field(field) { j in
                    j.array(counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) { j, item in
                        j.object { v in
                            v.field("value", label(item.key))
                            v.field("count", Int64(item.value))
                        }
                    }
                }
            }
        }
        return HTTPFace.json(.ok, json)
    }

    /// `/api/context?id=ID&before=N&after=N`: the entry and its neighbours in its own file,
    /// `{"at": index of the entry, "entries": [records]}`.
    static func context(_ explorer: Explorer, _ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        guard let id = parameters["id"].map(String.init) else { throw ExploreError("id: missing (a record's id)") }
        let before = try number(parameters, "before", default: 10, in: 0...1000)
        let after = try number(parameters, "after", default: 10, in: 0...1000)
        let (records, at) = try explorer.context(id: id, before: before, after: after)
        var json = JSONText()
        json.object { o in
            o.field("at", Int64(at))
            o.field("entries") { j in j.array(records) { j, record in j.raw(record[...]) } }
        }
        return HTTPFace.json(.ok, json)
    }

    /// The query of a request's parameters.
    static func query(_ parameters: Parameters) throws(ExploreError) -> ExploreQuery {
        if parameters["q"] != nil && parameters["regex"] != nil { throw ExploreError("q and regex: give one of them") }
        let regex = parameters["regex"].map(String.init)
        return ExploreQuery(from: try time(parameters, "from"), to: try time(parameters, "to"),
                            text: regex ?? parameters["q"].map(String.init), isRegex: regex != nil,
                            includes: parameters.getAll("include"), excludes: parameters.getAll("exclude"))
    }

    /// A time parameter: milliseconds since the Unix epoch, or RFC 3339; in nanoseconds.
    static func time(_ parameters: Parameters, _ name: Substring) throws(ExploreError) -> Int64? {
        guard let text = parameters[name].map(String.init), !text.isEmpty else { return nil }
        if let ms = Int64(text) { return ms.multipliedReportingOverflow(by: 1_000_000).overflow ? nil : ms * 1_000_000 }
        guard let time = TimestampParser.iso8601(text) else {
            throw ExploreError("\(name)=\(text): expected milliseconds since 1970 or an RFC 3339 time such as 2026-11-20T10:00:00Z")
        }
        return time
    }

    static func number(_ parameters: Parameters, _ name: Substring, default value: Int, in range: ClosedRange<Int>) throws(ExploreError) -> Int {
        guard let text = parameters[name].map(String.init) else { return value }
        guard let n = Int(text), range.contains(n) else {
            throw ExploreError("\(name)=\(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}
