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

    /// `spytail explore` started on a free loopback port, once it has said where it listens and with which token
    /// (and, with `ready`, that the index is built).
    static func start(_ config: String, in dir: TemporaryDirectory, _ arguments: [String], ready: Bool) throws -> (RunningSpytail, Int, String) {
        let explore = try RunningSpytail(config: config, in: dir, verbose: false, arguments: ["--http", "127.0.0.1:0"] + arguments, subcommand: "explore")
        var port = 0, token = ""
        #expect(RunTools.waitUntil(30) {
            let text = explore.stderr
            if let line = text.split(separator: "\n").first(where: { $0.contains("http: listening on") }) { port = Int(line.split(separator: ":").last ?? "") ?? 0 }
            if let range = text.range(of: "?token=") { token = String(text[range.upperBound...].prefix { $0.isHexDigit }) }
            return port > 0 && token.count == 32 && (!ready || text.contains("; ready"))
        }, "\(explore.stderr)")
        return (explore, port, token)
    }

    @Test func indexesAChainServesTheHistoryApiAndStopsOnSigterm() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        let (explore, port, token) = try ExploreCommandTests.start(config, in: dir, [], ready: false)
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
        let facets = try get("/api/facets?\(window)&field=level").json as? [String: Any]
        #expect((facets?["category"] as? [[String: Any]])?.first?["value"] as? String == "info")
        let level = facets?["field"] as? [String: Any]
        #expect(level?["sampled"] as? Int == 150 && level?["missing"] as? Int == 0, "\(String(describing: level))")
        #expect((level?["values"] as? [[String: Any]])?.map { "\($0["value"] ?? "")=\($0["count"] ?? "")" } == ["INFO=135", "ERROR=15"])
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

    /// `--follow`: lines appended to the live file join the view, through a rotation by rename, while the rotated
    /// copies are not followed; `/api/info` names the followed file.
    @Test func followReadsTheLiveFileOnThroughARotation() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        let (explore, port, token) = try ExploreCommandTests.start(config, in: dir, ["--follow", "--follow-interval", "50"], ready: false)
        func get(_ path: String) throws -> HTTPRun.Reply { try HTTPRun.request(port: port, in: dir, path, bearer: token) }
        #expect(RunTools.waitUntil(30) { (try? HTTPRun.request(port: port, in: dir, "/readyz", bearer: nil).status) == 200 }, "\(explore.stderr)")
        let info = try get("/api/info").json as? [String: Any]
        #expect((info?["following"] as? [String])?.map { $0.hasSuffix("logs/app.log") } == [true], "\(String(describing: info))")
        func count(_ q: String) -> Int { ((try? get("/api/count?q=\(q)"))?.json as? [String: Any])?["total"] as? Int ?? -1 }
        #expect(count("zebra") == 0)
        let live = dir.file("logs/app.log")
        func append(_ text: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: live))
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
        }
        try append("2026-11-20T10:10:01Z INFO zebra one\n2026-11-20T10:10:02Z INFO zebra two\n")
        #expect(RunTools.waitUntil(20) { count("zebra") == 2 }, "the second is handed out after the idle timeout")
        // Rotated by rename, a new live file: both read, the old entries still shown (from app.log.1 now).
        try append("2026-11-20T10:10:03Z INFO zebra three, just before the rotation\n")
        try FileManager.default.moveItem(atPath: dir.file("logs/app.log.1"), toPath: dir.file("logs/app.log.2"))
        try FileManager.default.moveItem(atPath: live, toPath: dir.file("logs/app.log.1"))
        dir.write("logs/app.log", "2026-11-20T10:10:04Z INFO zebra four, in the new file\n")
        #expect(RunTools.waitUntil(20) { count("zebra") == 4 }, "\(explore.stderr)")
        let page = try get("/api/entries?q=zebra")
        #expect((page.json as? [[String: Any]])?.compactMap { $0["message"] as? String } == [
            "zebra one", "zebra two", "zebra three, just before the rotation", "zebra four, in the new file"])
        let (status, _) = explore.stop()
        #expect(status == 0)
    }

    /// SIGTERM while a large file is indexed stops explore at once, not after the file.
    @Test func sigtermWhileIndexingStopsAtOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        // 16 GiB of NUL bytes, sparse (no disk used): about 25 s to index in a debug build here.
        let big = dir.file("logs/big.log")
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 16 << 30) == 0)
        let explore = try RunningSpytail(config: config, in: dir, verbose: false, arguments: ["--http", "127.0.0.1:0", big], subcommand: "explore")
        #expect(RunTools.waitUntil(30) { explore.stderr.contains("http: listening on") }, "\(explore.stderr)")
        explore.signal(SIGTERM)
        let stopped = RunTools.waitUntil(3) { !explore.process.isRunning }
        if !stopped { explore.killHard() }
        #expect(stopped && explore.process.terminationStatus == 0, "still indexing 3 s after SIGTERM: \(explore.stderr)")
        #expect(explore.stderr.contains("stopped while indexing (SIGTERM)") && !explore.stderr.contains("; ready"), "\(explore.stderr)")
    }

    @Test func standardInputCannotBeExploredAndAnAddressInUseIsAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.chain(in: dir)
        let stdin = try Harness.run(Harness.binary, ["explore", "-c", config, "-"], cwd: dir.path)
        #expect(stdin.status == 2 && stdin.stderr.contains("standard input"))
        for (option, value) in [("--follow-interval", "5"), ("--seek-points-every", "-1")] {
            let bad = try Harness.run(Harness.binary, ["explore", "-c", config, "\(option)=\(value)"], cwd: dir.path)
            #expect(bad.status != 0 && bad.stderr.contains("\(option) \(value)"), "\(bad.stderr)")
        }
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

/// `spytail explore`'s page in the real browser (chromium through chromedriver) against the real binary: the
/// history of a chain with a damaged gzip member, its histogram, a search, a drag that zooms, the gap where
/// the damage is, an entry's context, and a 10 MB line.
@Suite(.ownThread, .serialized)
struct ExploreDashboardTests {
    /// Two sources with their own parsers (JSON lines and text) merged by time in the page, each row naming its
    /// source; the source filter shows one of them.
    @Test func twoSourcesMergeByTimeInThePage() throws {
        guard WebDriver.available else { throw WebDriver.Failure(description: WebDriver.missing) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/api.json.log", (0..<20).map { #"{"time":"2026-11-20T10:00:\#(String(format: "%02d", $0 * 2))Z","level":"info","message":"api \#($0)"}"# }
            .joined(separator: "\n") + "\n")
        dir.write("logs/web.log", (0..<20).map { "2026-11-20T10:00:\(String(format: "%02d", $0 * 2 + 1))Z INFO [net] web \($0)" }.joined(separator: "\n") + "\n")
        let config = dir.write("config.json", #"""
            {"sources": [{"name": "api", "include": ["logs/*.json.log"], "parser": "j"},
                         {"name": "web", "include": ["logs/web.log"]}],
             "parsers": {"j": {"format": "json"}},
             \#(HTTPRun.parse)}
            """#)
        let (explore, port, token) = try ExploreCommandTests.start(config, in: dir, [], ready: true)
        defer { _ = explore.stop() }
        let browser = try WebDriver(in: dir)
        defer { browser.quit() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(token)")
        try browser.run("localStorage.setItem('spytail.tour.v1.done', '1')")
        try browser.open("http://127.0.0.1:\(port)/")
        #expect(browser.waitFor(20, "return document.querySelectorAll('[data-rows] .row').length === 40"), "\(explore.stderr)")
        let messages = browser.texts("[data-rows] .row .message")
        #expect(Array(messages.prefix(4)) == ["api 0", "web 0", "api 1", "web 1"], "\(messages.prefix(6))")
        let sources = (try? browser.run("return [...document.querySelectorAll('[data-rows] .row')].slice(0, 2).map((r) => r.entry.source.name)")) as? [String]
        #expect(sources == ["api", "web"])
        try browser.run("location.href = '/?include=source:web'")
        #expect(browser.waitFor(20, """
            const rows = [...document.querySelectorAll('[data-rows] .row .message')];
            return rows.length === 20 && rows.every((m) => m.textContent.startsWith('web '));
            """), "\(browser.texts("[data-rows] .row .message").prefix(3))")
        #expect(browser.consoleErrors().isEmpty, "\(browser.consoleErrors())")
    }

    /// `explore --follow` in the browser: new lines of the live file show up at the end of a view that reaches
    /// the present, with the count, without a reload.
    @Test func aFollowedHistoryGrowsInThePage() throws {
        guard WebDriver.available else { throw WebDriver.Failure(description: WebDriver.missing) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try ExploreCommandTests.chain(in: dir)
        let (explore, port, token) = try ExploreCommandTests.start(config, in: dir, ["--follow", "--follow-interval", "50"], ready: true)
        defer { _ = explore.stop() }
        let base = "http://127.0.0.1:\(port)"
        let browser = try WebDriver(in: dir)
        defer { browser.quit() }
        try browser.open("\(base)/?token=\(token)")
        try browser.run("localStorage.setItem('spytail.tour.v1.done', '1')")
        // The last minutes only: the whole view fits a page, so it reaches the present.
        try browser.open(base + "/?from=1795171080000")  // 2026-11-20T10:38:00Z
        #expect(browser.waitFor(20, "return document.querySelectorAll('[data-rows] .row').length > 0"), "\(explore.stderr)")
        #expect(browser.texts("[data-connection]") == ["following"])
        let before = browser.texts("[data-rows] .row .message").count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/app.log")))
        handle.seekToEndOfFile()
        handle.write(Data("2026-11-20T10:40:30Z ERROR [net] zebra arrived while browsing\n2026-11-20T10:40:31Z INFO [net] zebra two\n".utf8))
        try handle.close()
        #expect(browser.waitFor(20, "return [...document.querySelectorAll('[data-rows] .row .message')].some(m => m.textContent === 'zebra two')"),
                "\(browser.texts("[data-rows] .row .message").suffix(3))")
        let messages = browser.texts("[data-rows] .row .message")
        #expect(messages.count == before + 2 && messages.suffix(2) == ["zebra arrived while browsing", "zebra two"])
        #expect(browser.waitFor(10, "return document.querySelector('[data-count]').textContent === '\(before + 2) entries'"),
                "\(browser.texts("[data-count]"))")
    }

    @Test func browsingAChainsHistory() throws {
        guard WebDriver.available else { throw WebDriver.Failure(description: WebDriver.missing) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try ExploreCommandTests.chain(in: dir)
        // A 10 MB line in the live file (lines up to 16 MB kept whole): indexed, shown cut in its row, whole in
        // /api/download.
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: #""parse": {"#, with: #""parse": {"maxLineBytes": 16777216, "#).write(toFile: config, atomically: true, encoding: .utf8)
        let huge = "2026-11-20T10:39:59Z INFO [net] huge " + String(repeating: "h", count: 10_000_000) + "\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/app.log")))
        handle.seekToEndOfFile()
        handle.write(Data(huge.utf8))
        try handle.close()
        let (explore, port, token) = try ExploreCommandTests.start(config, in: dir, [], ready: true)
        defer { _ = explore.stop() }
        let base = "http://127.0.0.1:\(port)"
        let browser = try WebDriver(in: dir)
        defer { browser.quit() }
        func screenshot(_ name: String) {
            if let folder = ProcessInfo.processInfo.environment["SPYTAIL_SCREENSHOTS"] { try? browser.screenshot(folder + "/explore-\(name).png") }
        }
        try browser.resize(width: 1366, height: 800)
        try browser.open("\(base)/?token=\(token)")
        try browser.run("localStorage.setItem('spytail.tour.v1.done', '1')")
        try browser.open(base + "/")
        func count(_ selector: String) -> Int { ((try? browser.run("return document.querySelectorAll(arguments[0]).length", [selector])) as? Int) ?? -1 }

        // The history: oldest first, a histogram, the count, no run controls.
        #expect(browser.waitFor(20, "return document.querySelectorAll('[data-rows] .row').length > 0"), "\(explore.stderr)")
        #expect(browser.texts("[data-state-badge]") == ["history"])
        #expect(browser.texts("[data-rows] .row .message").first == "member 3 line 0 upstream Timeout")
        #expect(count("[data-histogram] .bucket") > 10 && count("[data-histogram] .segment.c-blue") > 10)
        #expect(count("[data-histogram] .segment.c-red") > 10, "errors in red though the config gives them no colour")
        #expect(count("[data-new-below]:not([hidden])") == 0, "a history has nothing new below")
        #expect(browser.waitFor(10, "return /^[0-9,]+ entries$/.test(document.querySelector('[data-count]').textContent)"),
                "\(browser.texts("[data-count]"))")
        #expect(count("[data-live-only]:not([hidden])") == 0)
        // "Load more" goes on where the page ended; the damaged member ends in a gap row, the next member after it.
        for _ in 0..<3 where count("[data-rows] .row[data-category=\"gap\"]") == 0 {
            let rows = count("[data-rows] .row")
            try browser.click("[data-load-more]")
            #expect(browser.waitFor(10, "return document.querySelectorAll('[data-rows] .row').length > \(rows)"))
        }
        #expect(browser.waitFor(10, """
            const gap = document.querySelector('[data-rows] .row[data-category="gap"]');
            return gap !== null && gap.nextElementSibling.entry.message.startsWith('member 2 line 0');
            """))
        #expect(browser.texts("[data-rows] .row .message").count == Set(browser.texts("[data-rows] .row")).count, "no row twice")
        screenshot("history")

        // A search, smart case: "timeout" finds "Timeout"; every row shown has it, and the count says how many.
        try browser.type("[data-search]", "timeout")
        #expect(browser.waitFor(10, """
            const rows = [...document.querySelectorAll('[data-rows] .row .message')];
            return rows.length > 40 && rows.every((r) => /timeout/i.test(r.textContent)) && location.search.includes('q=timeout');
            """), "\(browser.texts("[data-rows] .row .message").prefix(3))")
        screenshot("search")
        try browser.run("document.querySelector('[data-search]').value = ''; document.querySelector('[data-search]').dispatchEvent(new Event('input'))")
        #expect(browser.waitFor(10, "return !location.search.includes('q=')"))

        // A drag across the first quarter of the histogram zooms into it: the URL holds the window, the rows are in it.
        let width = (try browser.run("return document.querySelector('[data-histogram]').clientWidth") as? Int) ?? 0
        try browser.drag("[data-histogram]", from: 2, to: width / 4)
        #expect(browser.waitFor(10, "return location.search.includes('from=') && location.search.includes('to=')"), "\(browser.url)")
        #expect(browser.waitFor(10, """
            const p = new URLSearchParams(location.search), from = Number(p.get('from')), to = Number(p.get('to'));
            const rows = [...document.querySelectorAll('[data-rows] .row')].map((r) => Date.parse(r.entry.timestamp)).filter((t) => !isNaN(t));
            return rows.length > 0 && rows.every((t) => t >= from && t < to);
            """))
        #expect(count("[data-whole-history]:not([hidden])") == 1)
        screenshot("zoomed")
        try browser.click("[data-whole-history]")
        #expect(browser.waitFor(10, "return !location.search.includes('from=')"))

        // An entry's context: the lines around it in its own file, the entry itself marked.
        try browser.click("[data-rows] .row:nth-child(5)")
        try browser.click("[data-show-context]")
        #expect(browser.waitFor(10, "return document.querySelectorAll('[data-context] .row').length >= 10"))
        #expect(browser.texts("[data-context] .row.selected .message") == ["member 3 line 4"])
        screenshot("context")

        // A field's top values in the view (Kibana's field list); + shows only the entries with one of them.
        try browser.click("[data-top-values=\"level\"]")
        #expect(browser.waitFor(10, "return document.querySelectorAll('[data-top-values] [data-top-value]').length === 2"))
        #expect(browser.texts("[data-top-values] [data-top-value] .value") == ["INFO", "ERROR"])
        try browser.click("[data-top-value=\"ERROR\"] [data-pick=include]")
        #expect(browser.waitFor(10, """
            const rows = [...document.querySelectorAll('[data-rows] .row')];
            return location.search.includes('include=') && rows.length > 0 && rows.every((r) => r.dataset.category === 'error');
            """), "\(browser.url)")
        try browser.run("location.href = '/'")
        #expect(browser.waitFor(10, "return document.querySelectorAll('[data-rows] .row').length > 0"))

        // The 10 MB line: its row shows the start, the download holds all of it.
        try browser.press("\u{E00C}")
        try browser.run("location.href = '/?include=contains:huge'")
        #expect(browser.waitFor(20, "return document.querySelectorAll('[data-rows] .row').length === 1"))
        #expect((browser.texts("[data-rows] .row .message").first?.count ?? 0) < 1100, "a row shows the start of the line")
        let download = try HTTPRun.request(port: port, in: dir, "/api/download?include=contains:huge", bearer: token)
        #expect(download.body.count > 10_000_000 && download.body.contains(String(repeating: "h", count: 10_000_000)))
        #expect(browser.consoleErrors().isEmpty, "\(browser.consoleErrors())")
    }
}
