import Foundation
import Testing
import SpytailTestSupport

/// `spytail explore` as users run it: the real binary indexes a rotated chain (plain, real gzip, a damaged
/// gzip member), serves the history API on loopback (requests through the real curl), and stops on SIGTERM.
@Suite(.ownThread, .serialized)
struct ExploreCommandTests {
    /// A chain app.log.3.gz (damaged) … app.log: each member holds ten minutes, the one before it the ten before.
    static func chain(in dir: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        func lines(_ member: Int, _ count: Int) -> String {
            (0..<count).map { i in
                let seconds = (3 - member) * 600 + i * 600 / count
                let (minute, second) = (seconds / 60, seconds % 60)
                let level = i % 10 == 0 ? "ERROR" : "INFO"
                return "2026-11-20T10:\(String(format: "%02d:%02d", minute, second))Z \(level) [net] member \(member) line \(i)\(i % 25 == 0 ? " upstream Timeout" : "")\n"
            }.joined()
        }
        dir.write("logs/app.log", lines(0, 300))
        dir.write("logs/app.log.1", lines(1, 300))
        dir.write("logs/app.log.2.gz", Gzip.member(lines(2, 300)))
        let whole = Gzip.member(lines(3, 3000))
        dir.write("logs/app.log.3.gz", Array(whole[..<(whole.count * 2 / 3)]))
        let config = #"""
            {"sources": [{"name": "app", "include": ["logs/app.log"], "rotated": true}],
             \#(HTTPRun.parse),
             "outputs": [{"type": "stdout", "format": "jsonl"}]}
            """#
        return dir.write("config.json", config)
    }

    @Test func indexesAChainServesTheHistoryApiAndStopsOnSigterm() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        let explore = try RunningSpytail(config: config, in: dir, verbose: false, arguments: ["--http", "127.0.0.1:0"], subcommand: "explore")
        var port = 0, token = ""
        #expect(RunTools.waitUntil(30) {
            let text = explore.stderr
            if let line = text.split(separator: "\n").first(where: { $0.contains("http: listening on") }) { port = Int(line.split(separator: ":").last ?? "") ?? 0 }
            if let range = text.range(of: "?token=") { token = String(text[range.upperBound...].prefix { $0.isHexDigit }) }
            return port > 0 && token.count == 32
        }, "\(explore.stderr)")
        func get(_ path: String, bearer: String? = token) throws -> HTTPRun.Reply { try HTTPRun.request(port: port, in: dir, path, bearer: bearer) }
        #expect(RunTools.waitUntil(30) { (try? get("/readyz", bearer: nil).status) == 200 }, "\(explore.stderr)")
        #expect(explore.stderr.contains("logs/app.log.3.gz") && explore.stderr.contains("gzip"), "the damaged member is reported: \(explore.stderr)")

        #expect(try get("/api/entries", bearer: nil).status == 401)
        let info = try get("/api/info").json as? [String: Any]
        let indexed = info?["entries"] as? Int ?? 0
        #expect(info?["mode"] as? String == "history" && indexed > 900 && indexed < 3900, "\(String(describing: info))")
        #expect((info?["files"] as? [[String: Any]])?.compactMap { ($0["path"] as? String)?.split(separator: "/").last } == ["app.log.3.gz", "app.log.2.gz", "app.log.1", "app.log"])

        // The whole view as a file equals what scan --merge writes with the same config, gap record included.
        let download = try get("/api/download")
        let merged = try Harness.run(Harness.binary, ["scan", "--merge", "-q", "-c", config], cwd: dir.path)
        #expect(download.status == 200 && download.header("Content-Disposition")?.contains("attachment") == true)
        if download.body != merged.stdoutText {
            dir.write("download.jsonl", download.body)
            dir.write("merged.jsonl", merged.stdoutText)
            let diff = try Harness.run("/usr/bin/diff", [dir.file("download.jsonl"), dir.file("merged.jsonl")])
            Issue.record("explore's download and scan --merge differ:\n\(diff.stdoutText.prefix(2000))")
        }
        let records = download.body.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == indexed)
        let gap = records.firstIndex { $0["category"] as? String == "gap" }
        #expect(gap != nil && ((records[gap!]["fields"] as? [String: Any])?["gapReason"] as? String) == "damaged")
        #expect((records[gap! + 1]["message"] as? String)?.hasPrefix("member 2 line 0") == true, "the gap sits where the damaged member ends")

        // A window, a page, a search (smart case), the histogram, the facets, an entry's context.
        let window = "from=2026-11-20T10:20:00Z&to=2026-11-20T10:25:00Z"
        let page = try get("/api/entries?\(window)&limit=50")
        #expect(page.status == 200 && page.header("X-Spytail-Total") == "150" && page.header("X-Spytail-Next") != nil)
        let first = (page.json as? [[String: Any]])?.first
        #expect(first?["message"] as? String == "member 1 line 0 upstream Timeout")
        let next = try get("/api/entries?\(window)&limit=50&after=\(page.header("X-Spytail-Next") ?? "")")
        #expect((next.json as? [[String: Any]])?.first?["message"] as? String == "member 1 line 50 upstream Timeout")
        let search = try get("/api/entries?q=timeout&limit=1000")
        let expected = records.filter { ($0["message"] as? String)?.lowercased().contains("timeout") == true }.count
        #expect(search.header("X-Spytail-Total") == String(expected) && expected > 40)
        #expect((try get("/api/count?q=timeout").json as? [String: Any])?["total"] as? Int == expected)
        #expect(try get("/api/entries?q=timeout&include=category:error").header("X-Spytail-Total") == String(records.filter {
            ($0["message"] as? String)?.contains("Timeout") == true && $0["category"] as? String == "error" }.count))
        let histogram = try get("/api/histogram?\(window)&buckets=5").json as? [String: Any]
        #expect(histogram?["width"] as? Int == 60_000 && histogram?["total"] as? Int == 150, "\(String(describing: histogram))")
        #expect((histogram?["counts"] as? [[Int]])?.first == [3, 0, 0, 27, 0], "per category: error, warning, debug, info, gap")
        let facets = try get("/api/facets?\(window)").json as? [String: Any]
        #expect((facets?["category"] as? [[String: Any]])?.first?["value"] as? String == "info")
        let id = first?["id"] as? String ?? ""
        let context = try get("/api/context?id=\(id)&before=3&after=2").json as? [String: Any]
        let around = (context?["entries"] as? [[String: Any]])?.compactMap { $0["message"] as? String }
        #expect(context?["at"] as? Int == 0 && around == ["member 1 line 0 upstream Timeout", "member 1 line 1", "member 1 line 2"], "\(String(describing: context))")
        // Bad parameters are 400s that say what is wrong.
        let bad = try get("/api/entries?from=yesterday")
        #expect(bad.status == 400 && bad.body.contains("from=yesterday"))
        #expect(try get("/api/entries?regex=(").status == 400)

        let (status, seconds) = explore.stop()
        #expect(status == 0 && seconds < 5)
        #expect(explore.stderr.contains("stopped (SIGTERM)"))
    }

    @Test func standardInputCannotBeExploredAndAnAddressInUseIsAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        let stdin = try Harness.run(Harness.binary, ["explore", "-c", config, "-"], cwd: dir.path)
        #expect(stdin.status == 2 && stdin.stderr.contains("standard input"))
        let first = try RunningSpytail(config: config, in: dir, verbose: false, arguments: ["--http", "127.0.0.1:0"], subcommand: "explore")
        var port = 0
        RunTools.waitUntil(30) {
            if let line = first.stderr.split(separator: "\n").first(where: { $0.contains("listening on") }) { port = Int(line.split(separator: ":").last ?? "") ?? 0 }
            return port > 0
        }
        let second = try Harness.run(Harness.binary, ["explore", "-c", config, "--http", "127.0.0.1:\(port)"], cwd: dir.path)
        #expect(second.status == 2 && second.stderr.contains("address already in use"), "\(second.stderr)")
        #expect(first.stop().status == 0)
    }
}
