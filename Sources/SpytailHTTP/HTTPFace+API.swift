import Glibc
import HTTPTypes
import Hummingbird
import NIOCore
import SpytailCore
import SpytailIO

/// `/api/info`, `/api/entries`, `POST /api/state`.
extension HTTPFace {
    func info() -> Response {
        let s = telemetry.current
        var json = JSONText()
        json.object { o in
            o.field("version", BuildInfo.version)
            o.field("commit", BuildInfo.commit)
            o.field("buildDate", BuildInfo.buildDate)
            o.field("swift", BuildInfo.swiftVersion)
            o.field("libraries") { j in
                j.object { l in for library in BuildInfo.libraries { l.field(library.name, library.version) } }
            }
            o.field("config", s.configPath)
            o.field("startedAt", telemetry.startedAtUnix)
            o.field("uptimeSeconds", telemetry.uptime)
            o.field("state", s.state.rawValue)
            o.field("ready", s.readiness.isReady ? "yes" : "no")
            o.field("stalledOn", s.stalledOn)
            o.field("files") { j in
                j.array(s.files) { j, row in
                    j.object { f in
                        f.field("path", row.path)
                        f.field("offset", row.offset)
                        f.field("size", row.size)
                        f.field("behind", row.behind)
                        f.field("status", row.status)
                    }
                }
            }
            o.field("outputs") { j in
                j.array(s.outputNames.enumerated()) { j, item in
                    j.object { out in
                        out.field("index", Int64(item.offset))
                        out.field("name", item.element)
                        out.field("records", Int64(item.offset < s.writtenByOutput.count ? s.writtenByOutput[item.offset] : 0))
                    }
                }
            }
            vocabulary(&o, s)
            o.field("viewers", Int64(viewers.count))
            o.field("problems") { j in j.array(telemetry.lastProblems) { j, text in j.string(text) } }
        }
        return Self.json(.ok, json)
    }

    /// What the dashboard labels and offers: categories (glyph, colour, entries seen), tags, sources, integrations.
    private func vocabulary(_ o: inout JSONText.ObjectWriter, _ s: RunSnapshot) {
        guard let context = telemetry.viewContext else { return }
        o.field("categories") { j in
            j.array(context.vocabulary.categories) { j, label in
                j.object { c in
                    c.field("name", label.name)
                    c.field("display", label.display)
                    c.field("color", label.color)
                    c.field("count", Int64(s.entriesByCategory[label.name] ?? 0))
                }
            }
        }
        o.field("tags") { j in
            j.array(context.vocabulary.tags) { j, label in
                j.object { t in
                    t.field("name", label.name)
                    t.field("display", label.display)
                }
            }
        }
        o.field("sources") { j in
            j.array(context.config.sources) { j, source in
                j.object { s in
                    s.field("name", source.name)
                    s.field("parser", source.parser)
                }
            }
        }
        o.field("integrations") { j in
            j.array(context.config.integrations) { j, integration in
                j.object { i in
                    i.field("name", integration.name)
                    i.field("ignorablePrefixes") { j in j.array(integration.ignorablePrefixes) { j, p in j.string(p) } }
                }
            }
        }
    }

    /// The view filter a request asks for (`include=`, `exclude=`, `q=`), or a 400 naming what is wrong.
    func viewFilter(_ request: Request) throws -> ViewFilter {
        guard let context = telemetry.viewContext else { return .everything }
        let parameters = request.uri.queryParameters
        do {
            return try ViewFilter.compile(includes: parameters.getAll("include"), excludes: parameters.getAll("exclude"),
                                          query: parameters["q"].map(String.init), context: context)
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    func entries(_ request: Request) throws -> Response {
        let filter = try viewFilter(request)
        let capacity = telemetry.recent.capacity
        var limit = capacity
        if let text = request.uri.queryParameters["limit"] {
            guard let n = Int(text), n >= 0 else { throw HTTPError(.badRequest, message: "limit=\(text): expected a whole number") }
            limit = min(n, capacity)
        }
        let window = telemetry.recent.newest(capacity)
        let shown = window.entries.filter(filter.shows).suffix(limit)
        var json = JSONText()
        json.array(shown) { j, entry in j.raw(entry.record) }
        var response = Self.json(.ok, json)
        // Where `/api/stream?after=` picks up so that nothing falls between the two.
        response.headers[HTTPField.Name("X-Spytail-Through")!] = String(window.through)
        return response
    }

    func setState(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 4096)
        let wanted: SpyState
        do {
            guard case .object(let members) = try JSONValue.parse(Array(buffer: body)),
                  case .string(let name)? = members["state"], let state = SpyState(rawValue: name) else {
                throw HTTPError(.badRequest)
            }
            wanted = state
        } catch {
            throw HTTPError(.badRequest, message: #"expected {"state": "recording" | "idle" | "disabled"}"#)
        }
        telemetry.request(.setState(wanted))
        // The loop applies it at its next batch and publishes it; the answer says whether it did within 5 s.
        let applied = await telemetry.state(wanted, publishedWithin: .seconds(5))
        return Self.json(applied ? .ok : .accepted, #"{"state":"\#(applied ? wanted.rawValue : telemetry.current.state.rawValue)","requested":"\#(wanted.rawValue)"}"#)
    }
}
