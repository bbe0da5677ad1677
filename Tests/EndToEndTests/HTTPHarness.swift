import Foundation
import SpytailTestSupport

/// A `spytail run` with its HTTP face on a free loopback port, and requests to it through the real `curl`.
final class HTTPRun {
    let spytail: RunningSpytail
    let directory: TemporaryDirectory
    let port: Int
    let token: String

    /// The parse rules the HTTP tests use: level → category (error, warning, debug, info) and one tag.
    static let parse = #"""
        "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
          "categories": [{"name": "error", "match": {"field": "level", "prefix": "ERROR"}},
                         {"name": "warning", "match": {"field": "level", "prefix": "WARN"}},
                         {"name": "debug", "match": {"field": "level", "prefix": "DEBUG"}},
                         {"name": "info", "default": true}],
          "tags": [{"name": "net", "match": {"field": "tags", "contains": "[net]"}}]}
        """#

    /// Starts `run` with `http` (the section's members besides listen) in `directory`; waits for it to listen.
    init(in directory: TemporaryDirectory, http: String = "", parse: String = HTTPRun.parse, extra: String = "",
         sources: String? = nil, arguments: [String] = [], prepare: () throws -> Void = {}) throws {
        self.directory = directory
        try prepare()
        let config = directory.file("config.json")
        let section = #""http": {"listen": "127.0.0.1:0"\#(http.isEmpty ? "" : ", " + http)}"#
        try RunTools.config(extra: ", " + parse + ", " + section + extra, sources: sources).write(toFile: config, atomically: true, encoding: .utf8)
        spytail = try RunningSpytail(config: config, in: directory, arguments: arguments)
        var port = 0, token = ""
        let spytail = self.spytail
        RunTools.waitUntil(30) {
            let text = spytail.stderr
            if let line = text.split(separator: "\n").first(where: { $0.contains("http: listening on") }), let p = Int(line.split(separator: ":").last ?? "") {
                port = p
            }
            if let range = text.range(of: "?token=") { token = String(text[range.upperBound...].prefix { $0.isHexDigit }) }
            return port > 0 && (!token.isEmpty || !http.isEmpty)
        }
        self.port = port
        self.token = token
    }

    struct Reply {
        let status: Int
        let body: String
        let headers: String
        func header(_ name: String) -> String? {
            headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    }

    /// One request through curl. `bearer`: nil sends no Authorization header.
    func request(_ path: String, method: String = "GET", bearer: String? = nil, cookie: String? = nil, body: String? = nil) throws -> Reply {
        try Self.request(port: port, in: directory, path, method: method, bearer: bearer, cookie: cookie, body: body)
    }

    /// One request through curl to a spytail on `port`, its body kept in `directory` meanwhile.
    static func request(port: Int, in directory: TemporaryDirectory, _ path: String, method: String = "GET", bearer: String? = nil,
                        cookie: String? = nil, body: String? = nil) throws -> Reply {
        var args = ["-s", "-g", "-X", method, "-D", "-", "-o", directory.file("body.out"), "--max-time", "20", "http://127.0.0.1:\(port)\(path)"]
        if let bearer { args += ["-H", "Authorization: Bearer \(bearer)"] }
        if let cookie { args += ["-H", "Cookie: \(cookie)"] }
        if let body { args += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let result = try Harness.run("/usr/bin/curl", args)
        let headers = result.stdoutText
        let status = Int(headers.split(separator: " ").dropFirst().first ?? "") ?? -1
        let bodyText = (try? String(contentsOfFile: directory.file("body.out"), encoding: .utf8)) ?? ""
        return Reply(status: status, body: bodyText, headers: headers)
    }

    func authorized(_ path: String) throws -> Reply { try request(path, bearer: token) }

    /// The newest entries' messages (`/api/entries` with `query`).
    func messages(_ query: String = "") throws -> [String] {
        let reply = try authorized("/api/entries" + query)
        return (reply.json as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
    }

    /// A value of `/metrics` (the sample whose name and labels start the line).
    func metric(_ sample: String) throws -> Double? {
        let text = try request("/metrics").body
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(sample + " ") }) else { return nil }
        return Double(line.split(separator: " ").last ?? "")
    }
}
