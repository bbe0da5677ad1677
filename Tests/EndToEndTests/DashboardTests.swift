import Foundation
import Testing
import SpytailTestSupport

/// The dashboard at `/`, in a real browser (Debian's headless chromium through chromedriver) against the real
/// binary: entries arriving live, category toggles and filter chips, search, the drawer's state switch with
/// the output file as witness, hostile messages, the Spotlight tour, and the page's own JavaScript unit tests.
/// Each test saves screenshots (`dashboard-*.png`) in `$SPYTAIL_SCREENSHOTS` when set; its workspace (with the
/// browser's profile, ~57 MB) is removed at the end.
@Suite(.ownThread, .serialized)
struct DashboardTests {
    static let lines = """
        2026-11-20T10:00:00Z INFO [net] hello from the network
        2026-11-20T10:00:01Z DEBUG noisy detail
        2026-11-20T10:00:02Z ERROR boom happened
        \tat Boom.explode(Boom.swift:12)
        2026-11-20T10:00:03Z WARN disk almost full

        """

    /// A run with its HTTP face and a browser logged in with the printed token. `tour`: leave the first-visit
    /// tour to run (other tests mark it done so its overlay is not in their way).
    final class Session {
        let dir: TemporaryDirectory
        let http: HTTPRun
        let browser: WebDriver
        var base: String { "http://127.0.0.1:\(http.port)" }

        /// `files`: the logs to start with (path in the workspace → content); `lines` is logs/app.log's.
        init(lines: String = DashboardTests.lines, extra: String = "", tour: Bool = false, files: [String: String]? = nil,
             parse: String = DashboardTests.parse, sources: String? = nil) throws {
            guard WebDriver.available else { throw WebDriver.Failure(description: WebDriver.missing) }
            dir = try RunTools.workspace()
            for (path, text) in files ?? ["logs/app.log": lines] {
                try text.write(toFile: dir.file(path), atomically: true, encoding: .utf8)
            }
            http = try HTTPRun(in: dir, parse: parse, extra: extra, sources: sources)
            browser = try WebDriver(in: dir)
            try browser.open("\(base)/?token=\(http.token)")
            if !tour {
                try browser.run("localStorage.setItem('spytail.tour.v1.done', '1')")
                try browser.open(base + "/")
            }
        }

        deinit { dir.remove() }

        /// Ends the browser and spytail; spytail must still be running and stop cleanly (a sanitizer's report
        /// ends it early with its own status: its stderr is in the message).
        func stop() {
            browser.quit()
            let (status, _) = http.spytail.stop()
            #expect(status == 0, "spytail ended with status \(status):\n\(http.spytail.stderr)")
        }

        func count(_ selector: String) -> Int {
            ((try? browser.run("return document.querySelectorAll(arguments[0]).length", [selector])) as? Int) ?? -1
        }

        func texts(_ selector: String) -> [String] { browser.texts(selector) }

        /// The messages of the rows the page shows, oldest first.
        var messages: [String] { texts("[data-entry-id] .message") }

        /// Waits until the page shows exactly `expected` as its messages.
        func shows(_ expected: [String], within seconds: Double = 10) -> Bool {
            RunTools.waitUntil(seconds) { messages == expected }
        }

        func outputLines() -> [String] {
            TextLines.ofFile(dir.file("out.jsonl"))
        }

        /// Saves the page in the workspace (removed with it), and in `$SPYTAIL_SCREENSHOTS` when set (the README's picture comes
        /// from `SPYTAIL_SCREENSHOTS=/tmp/shots swift test --filter DashboardTests`: dashboard-toggle.png).
        func screenshot(_ name: String) {
            try? browser.screenshot(dir.file("dashboard-\(name).png"))
            if let folder = ProcessInfo.processInfo.environment["SPYTAIL_SCREENSHOTS"] {
                try? browser.screenshot(folder + "/dashboard-\(name).png")
            }
        }

        /// See `WebDriver.consoleErrors`.
        func consoleErrors() -> [String] { browser.consoleErrors() }
    }

    /// The HTTP tests' rules with the glyphs and colours of config/default.json, as people configure them.
    static let parse = #"""
        "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
          "multiline": {"continuation": "^\\s"},
          "categories": [{"name": "error", "display": "🛑", "color": "red", "match": {"field": "level", "prefix": "ERROR"}},
                         {"name": "warning", "display": "⚠️", "color": "yellow", "match": {"field": "level", "prefix": "WARN"}},
                         {"name": "debug", "display": "·", "color": "dim", "match": {"field": "level", "prefix": "DEBUG"}},
                         {"name": "info", "display": "ℹ️", "default": true}],
          "tags": [{"name": "net", "display": "🌐", "match": {"field": "tags", "contains": "[net]"}}]}
        """#

    static let all = ["hello from the network", "noisy detail", "boom happened", "disk almost full"]
    /// Sanitized builds run several times slower; the 1 s of the plain build becomes 5 s there.
    static let live: Double = Harness.binaryIsSanitized ? 5 : 1

    @Test
    func entriesArriveLiveAndTheViewFollowsTheTail() throws {
        let s = try Session()
        defer { s.stop() }
        #expect(s.shows(Self.all), "\(s.messages) \(s.http.spytail.stderr)")
        #expect(s.texts("[data-connection]") == ["live"] || RunTools.waitUntil { s.texts("[data-connection]") == ["live"] })
        // Each row carries its record's id and category; the category's glyph comes from the config.
        #expect(s.texts("[data-category=\"error\"] .message") == ["boom happened"])
        let ids = (try s.browser.run("return [...document.querySelectorAll('[data-entry-id]')].map(e => e.dataset.entryId)")) as? [String] ?? []
        let outputIds = s.outputLines().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
        #expect(ids == outputIds && ids.count == 4, "\(ids) \(outputIds)")

        // A line written now is in the page within a second (a sanitized build: five).
        let written = Date()
        try RunToolsOutput.append(s.dir.file("logs/app.log"), "2026-11-20T10:00:04Z INFO written while watching\n")
        #expect(RunTools.waitUntil(Self.live, { s.messages.last == "written while watching" }), "\(s.messages)")
        print("dashboard: write(2) to row in the DOM: \(Int(Date().timeIntervalSince(written) * 1000)) ms (one line)")

        // Click a row: its detail, source and id.
        try s.browser.click("[data-category=\"error\"]")
        #expect(s.browser.waitFor(5, "return !document.querySelector('[data-detail]').hidden"))
        let detail = s.texts("[data-detail-fields] dd").joined(separator: "\n")
        #expect(detail.contains(ids[2]) && detail.contains("logs/app.log @ "), "\(detail)")
        #expect(s.texts("[data-detail-text]").first == "boom happened\n\tat Boom.explode(Boom.swift:12)", "\(s.texts("[data-detail-text]"))")
        #expect(s.texts("[data-category=\"error\"] .has-detail") == ["+1"])
        s.screenshot("detail")
        try s.browser.press("\u{E00C}")
        #expect(s.browser.waitFor(5, "return document.querySelector('[data-detail]').hidden"))

        // Scrolled up, the view holds still and counts what arrived below.
        var more = ""
        for i in 0..<120 { more += "2026-11-20T10:01:00Z INFO filler line \(i)\n" }
        try RunToolsOutput.append(s.dir.file("logs/app.log"), more)
        #expect(RunTools.waitUntil { s.messages.last == "filler line 119" })
        try s.browser.run("const e = document.querySelector('[data-entries]'); e.scrollTop = 0; e.dispatchEvent(new Event('scroll'))")
        try RunToolsOutput.append(s.dir.file("logs/app.log"), "2026-11-20T10:02:00Z INFO below one\n2026-11-20T10:02:01Z INFO below two\n")
        #expect(RunTools.waitUntil { s.texts("[data-new-below]:not([hidden])") == ["2 new ↓"] }, "\(s.texts("[data-new-below]"))")
        #expect(((try s.browser.run("return document.querySelector('[data-entries]').scrollTop")) as? Int) == 0)
        try s.browser.click("[data-new-below]")
        #expect(s.browser.waitFor(5, """
            const e = document.querySelector('[data-entries]');
            return e.scrollTop + e.clientHeight >= e.scrollHeight - 24 && document.querySelector('[data-new-below]').hidden
            """))
        s.screenshot("entries")
        #expect(s.consoleErrors().isEmpty, "\(s.consoleErrors())")
    }

    @Test
    func categoryTogglesFilterChipsAndSearchDriveTheServersFilters() throws {
        let s = try Session()
        defer { s.stop() }
        #expect(s.shows(Self.all), "\(s.messages)")

        // Toggle debug off: no debug rows, a chip 'Category is debug', the view in the URL; on again: all back.
        try s.browser.click(".categories summary")
        try s.browser.click("input[type=checkbox][data-category-toggle=\"debug\"]")
        #expect(s.shows(Self.all.filter { $0 != "noisy detail" }), "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == ["Category is debug"])
        #expect(s.browser.url.hasSuffix("/?exclude=category%3Adebug"), "\(s.browser.url)")
        #expect(try s.browser.run("return document.querySelector('[data-category-toggle=\"debug\"]').checked") as? Bool == false)
        s.screenshot("toggle")
        try s.browser.click("input[type=checkbox][data-category-toggle=\"debug\"]")
        #expect(s.shows(Self.all), "\(s.messages)")
        #expect(s.count("[data-filter]") == 0)
        try s.browser.press("\u{E00C}")  // Esc closes the menu
        #expect(s.browser.waitFor(5, "return !document.querySelector('.categories').open"))

        // A contains filter from the form; removed by its chip's button.
        try s.browser.click("[data-add-filter-menu] summary")
        try s.browser.type("[data-filter-value]", "network")
        try s.browser.click("[data-add-filter] button[type=submit]")
        #expect(s.shows(["noisy detail", "boom happened", "disk almost full"]), "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == ["Message contains \"network\""])
        // A live line the filter hides never shows; one it lets through does.
        try RunToolsOutput.append(s.dir.file("logs/app.log"), "2026-11-20T10:00:05Z INFO network again\n2026-11-20T10:00:06Z INFO plain again\n")
        #expect(s.shows(["noisy detail", "boom happened", "disk almost full", "plain again"]), "\(s.messages)")
        try s.browser.click("[data-filter] button[data-remove-filter]")
        #expect(s.shows(Self.all + ["network again", "plain again"]), "\(s.messages)")

        // Search keeps only matching messages; it lives in the URL too.
        try s.browser.press("/")
        #expect(try s.browser.run("return document.activeElement.matches('[data-search]')") as? Bool == true)
        try s.browser.type("[data-search]", "again")
        #expect(s.shows(["network again", "plain again"]), "\(s.messages)")
        #expect(s.browser.url.contains("q=again"), "\(s.browser.url)")

        // A bookmarked view opens as it was; a filter the server does not know is refused, named, not taken.
        try s.browser.open(s.base + "/?exclude=tag%3Anet&exclude=category%3Aerror")
        #expect(s.shows(["noisy detail", "disk almost full", "network again", "plain again"]), "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == ["Tag is net", "Category is error"])
        try s.browser.open(s.base + "/?exclude=category%3Anope")
        #expect(RunTools.waitUntil { s.texts("[data-filter-error]").first?.contains("nope") == true }, "\(s.texts("[data-filter-error]"))")
        #expect(s.shows(Self.all + ["network again", "plain again"]), "\(s.messages)")
        // Whatever the view, the output exported everything.
        #expect(s.outputLines().count == 6)
    }

    /// Two sources in two formats: a JSON app log and an access log read by a regex with a typed status.
    static let structuredSources = #"""
        [{"name": "app", "include": ["logs/*.json"], "parser": "app"}, {"name": "web", "include": ["logs/*.log"], "parser": "web"}],
        "parsers": {"app": {"format": "json"},
                    "web": {"format": "regex", "pattern": "^(?<status>\\d{3}) (?<message>.*)$", "types": {"status": "integer"}}}
        """#
    static let structuredParse = #"""
        "parse": {"categories": [{"name": "error", "display": "🛑", "color": "red",
                                  "match": {"any": [{"field": "level", "equals": "ERROR"}, {"field": "status", "gte": 500}]}},
                                 {"name": "info", "display": "ℹ️", "default": true}]}
        """#
    static let structuredFiles = [
        "logs/app.json": """
            {"level": "INFO", "msg": "served", "http": {"status": 200, "ms": 12}}
            {"level": "ERROR", "msg": "failed", "http": {"status": 503, "ms": 2400}, "user": {"name": "ann", "roles": ["admin"]}, "retry": true}
            {"level": "INFO", "msg": "cached", "http": {"status": 304, "ms": 1}}

            """,
        "logs/web.log": "404 GET /missing\n502 GET /upstream\n",
    ]

    @Test
    func structuredFieldsShowAsATreeAndAClickOnAValueFiltersTheView() throws {
        let s = try Session(files: Self.structuredFiles, parse: Self.structuredParse, sources: Self.structuredSources)
        defer { s.stop() }
        let all = ["served", "failed", "cached", "GET /missing", "GET /upstream"]
        // The two files are read in either order: compare as sets while all arrive.
        #expect(RunTools.waitUntil(10) { Set(s.messages) == Set(all) && s.messages.count == 5 }, "\(s.messages) \(s.http.spytail.stderr)")
        // With two sources each row names its source.
        #expect(RunTools.waitUntil { Set(s.texts("[data-entry-id] .source-name")) == ["app", "web"] }, "\(s.texts(".source-name"))")

        // The detail of the JSON entry: typed, nested fields as a tree.
        try s.browser.run("[...document.querySelectorAll('[data-entry-id]')].find(r => r.entry.message === 'failed').click()")
        #expect(s.browser.waitFor(5, "return !document.querySelector('[data-detail]').hidden"))
        let tree = try s.browser.run("""
            return [...document.querySelectorAll('[data-field-tree] li')].map(li =>
              [li.dataset.fieldPath, li.dataset.kind, li.querySelector('.value').textContent, li.style.paddingLeft !== '0em'])
            """) as? [[Any]] ?? []
        let rows = tree.map { "\($0[0]) \($0[1]) \($0[2]) \(($0[3] as? Bool) == true ? "nested" : "top")" }
        #expect(rows == ["level string ERROR top", "http object {2} top", "http.status number 503 nested", "http.ms number 2400 nested",
                         "user object {2} top", "user.name string ann nested", "user.roles array [1] nested", "user.roles.0 string admin nested",
                         "retry boolean true top"], "\(rows)")
        #expect(s.texts("[data-detail-fields] dd").contains { $0.hasPrefix("app: ") && $0.contains("logs/app.json @ ") }, "\(s.texts("[data-detail-fields] dd"))")
        s.screenshot("fields")

        // − beside http.status 503 hides the entries with that value: the condition is in the URL, as the config writes it.
        try s.browser.click("[data-field-path=\"http.status\"] [data-pick=exclude]")
        #expect(s.shows(s.messages.filter { $0 != "failed" }) && !s.messages.contains("failed") && s.messages.count == 4, "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == [#"http.status = 503"#], "\(s.texts("[data-filter] .chip-label"))")
        let url = s.browser.url.removingPercentEncoding ?? ""
        #expect(url.hasSuffix(#"/?exclude={"field":"http.status","equals":503}"#), "\(url)")
        // A line arriving now with that value stays hidden; another shows.
        try RunToolsOutput.append(s.dir.file("logs/app.json"), """
            {"level": "ERROR", "msg": "failed again", "http": {"status": 503}}
            {"level": "INFO", "msg": "served again", "http": {"status": 200}}

            """)
        #expect(RunTools.waitUntil { s.messages.last == "served again" }, "\(s.messages)")
        #expect(!s.messages.contains("failed again"))

        // + beside a source in an entry's detail shows only that source; the sources menu shows its toggle off for none.
        try s.browser.click("[data-filter] button[data-remove-filter]")
        #expect(RunTools.waitUntil { s.messages.count == 7 }, "\(s.messages)")
        try s.browser.run("[...document.querySelectorAll('[data-entry-id]')].find(r => r.entry.message === 'GET /upstream').click()")
        #expect(s.browser.waitFor(5, "return !document.querySelector('[data-detail]').hidden"))
        try s.browser.click("[data-detail-fields] [data-pick=include]")
        #expect(RunTools.waitUntil { Set(s.messages) == ["GET /missing", "GET /upstream"] && s.messages.count == 2 }, "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == ["Only: Source is web"])
        #expect(s.browser.url.hasSuffix("/?include=source%3Aweb"), "\(s.browser.url)")
        try s.browser.press("\u{E00C}")  // Esc closes the detail
        #expect(s.browser.waitFor(5, "return document.querySelector('[data-detail]').hidden"))

        // A JSON condition typed in the form, and the sources menu's toggle.
        try s.browser.click("[data-filter] button[data-remove-filter]")
        #expect(s.browser.waitFor(5, "return document.querySelectorAll('[data-filter]').length === 0"), "the chip went")
        try s.browser.click("[data-add-filter-menu] summary")
        try s.browser.run("document.querySelector('[data-filter-mode]').value = 'json'")
        try s.browser.type("[data-filter-value]", #"{"any": [{"field": "status", "gte": 500}, {"field": "http.status", "gte": 500}]}"#)
        try s.browser.click("[data-add-filter] [data-include-submit]")
        #expect(RunTools.waitUntil { Set(s.messages) == ["failed", "failed again", "GET /upstream"] && s.messages.count == 3 }, "\(s.messages)")
        try s.browser.click("[data-sources-menu] summary")
        try s.browser.click("input[type=checkbox][data-source-toggle=\"web\"]")
        #expect(RunTools.waitUntil { Set(s.messages) == ["failed", "failed again"] && s.messages.count == 2 }, "\(s.messages)")
        #expect(s.texts("[data-filter] .chip-label") == [#"Only: (status ≥ 500 or http.status ≥ 500)"#, "Source is web"], "\(s.texts("[data-filter] .chip-label"))")
        // A condition the server refuses is named and not taken.
        if s.count("[data-sources-menu][open]") == 1 { try s.browser.press("\u{E00C}") }  // Esc closes the sources menu
        #expect(s.browser.waitFor(5, "return document.querySelectorAll('details.menu[open]:not([data-add-filter-menu])').length === 0"))
        if s.count("[data-add-filter-menu][open]") == 0 { try s.browser.click("[data-add-filter-menu] summary") }
        try s.browser.run("document.querySelector('[data-filter-mode]').value = 'json'")
        try s.browser.type("[data-filter-value]", #"{"field": "http.status", "gte": "high"}"#)
        try s.browser.click("[data-add-filter] button[type=submit]")
        #expect(RunTools.waitUntil { s.texts("[data-filter-error]").first?.contains("exclude.gte: expected a number") == true }, "\(s.texts("[data-filter-error]"))")
        #expect(s.messages.count == 2)
        s.screenshot("fields-filtered")
        // Whatever the view, the output exported everything.
        #expect(s.outputLines().count == 7)
        #expect(s.consoleErrors().filter { !$0.contains("400") }.isEmpty, "\(s.consoleErrors())")
    }

    @Test
    func theDrawerSwitchesStateAndTheGapRecordShows() throws {
        let s = try Session()
        defer { s.stop() }
        #expect(s.shows(Self.all), "\(s.messages)")
        try s.browser.click("[data-open-drawer]")
        #expect(s.browser.waitFor(5, "return !document.querySelector('[data-drawer]').hidden"))
        #expect(RunTools.waitUntil { s.texts("[data-build] dd").count >= 6 }, "\(s.texts("[data-build] dd"))")
        let build = s.texts("[data-build] dd")
        #expect(build.first == "0.1.0" && build.contains { $0.hasSuffix("config.json") }, "\(build)")
        #expect(RunTools.waitUntil { s.texts("[data-files] td").contains { $0.hasSuffix("logs/app.log") } && s.texts("[data-files] td").contains("following") })
        // The drawer's figures refresh on their own beat: wait for the count to reach the four records.
        #expect(RunTools.waitUntil { s.texts("[data-outputs] li").first?.contains("4 records") == true }, "\(s.texts("[data-outputs] li"))")
        s.screenshot("drawer")

        // Idle: lines written now are read (positions current) but not exported; the output proves it.
        try s.browser.click("button[data-set-state=\"idle\"]")
        #expect(RunTools.waitUntil { s.texts("[data-state-badge]") == ["idle"] }, "\(s.texts("[data-state-badge]"))")
        try RunToolsOutput.append(s.dir.file("logs/app.log"), "2026-11-20T10:00:07Z INFO written while idle\n")
        #expect(RunTools.waitUntil {
            ((try? s.http.authorized("/api/info").json as? [String: Any])?["files"] as? [[String: Any]])?.first?["behind"] as? Int == 0
        })
        #expect(s.outputLines().count == 4 && !s.outputLines().joined().contains("written while idle"))
        #expect(!s.messages.contains("written while idle"))

        // Back to recording: the gap record is exported and shown.
        try s.browser.click("button[data-set-state=\"recording\"]")
        #expect(RunTools.waitUntil { s.texts("[data-state-badge]") == ["recording"] })
        #expect(RunTools.waitUntil { s.count("[data-category=\"gap\"]") == 1 }, "\(s.messages) \(s.http.spytail.stderr) \(s.outputLines())")
        #expect(s.outputLines().contains { $0.contains(#""category":"gap""#) && $0.contains("idle") })

        // Disabled, and reload; Esc closes the drawer.
        try s.browser.click("button[data-set-state=\"disabled\"]")
        #expect(RunTools.waitUntil { s.texts("[data-state-badge]") == ["disabled"] })
        #expect(try s.http.request("/readyz").status == 503)
        try s.browser.click("button[data-set-state=\"recording\"]")
        try s.browser.click("[data-reload]")
        #expect(RunTools.waitUntil { s.http.spytail.stderr.contains("config unchanged; nothing to reload") }, "\(s.http.spytail.stderr)")
        #expect(s.texts("[data-reload-result]").first?.hasPrefix("reload requested") == true)
        try s.browser.press("\u{E00C}")
        #expect(s.browser.waitFor(5, "return document.querySelector('[data-drawer]').hidden"))
        #expect(s.consoleErrors().isEmpty, "\(s.consoleErrors())")
    }

    /// The page as one design: aligned columns (date and time, a level word, tags, the message to the right edge),
    /// search matches marked, a view-only pause that export does not notice, live and paused said in the header,
    /// the add-filter form folded away, the live view's histogram, a refused token said on the login form.
    @Test
    func rowsLineUpAndTheViewPausesWithoutPausingTheRun() throws {
        let long = "a long message " + String(repeating: "that goes on ", count: 40) + "and ends"
        let s = try Session(lines: Self.lines + "2026-11-20T10:00:04Z INFO \(long)\n")
        defer { s.stop() }
        try s.browser.resize(width: 1366, height: 800)
        #expect(s.shows(Self.all + [long]), "\(s.messages)")
        // Every message starts at the same x, with tags or not; the long one reaches the right edge; rows say the date.
        let lefts = (try s.browser.run("return [...document.querySelectorAll('[data-entry-id] .message')].map(m => Math.round(m.getBoundingClientRect().left))")) as? [Int] ?? []
        #expect(lefts.count == 5 && Set(lefts).count == 1, "\(lefts)")
        let right = (try s.browser.run("return Math.round([...document.querySelectorAll('[data-entry-id] .message')].pop().getBoundingClientRect().right)")) as? Int ?? 0
        #expect(right > 1300, "the message ends at \(right) px of 1366")
        #expect(s.texts("[data-entry-id] .time").first == "11-20 10:00:00")
        #expect(s.texts("[data-category=\"error\"] .level") == ["🛑 error"])
        // The add-filter form is folded away until asked for; the category menu names gap once.
        #expect(s.count("[data-add-filter-menu][open]") == 0 && s.count("[data-filter-value]") == 1)
        #expect(try s.browser.run("return document.querySelector('[data-filter-value]').checkVisibility()") as? Bool == false)
        let gapLabel = try s.browser.run("return document.querySelector('[data-category-toggle=\"gap\"]').closest('label').textContent") as? String ?? ""
        #expect(gapLabel.components(separatedBy: "gap").count == 2, "\(gapLabel)")
        // The live view's histogram counts the rows in view.
        #expect(s.browser.waitFor(5, "return document.querySelectorAll('[data-histogram] .segment').length > 0"))
        #expect(s.texts("[data-live-status]") == ["● live"])

        // A search marks what it matched (smart case) in every row it keeps.
        try s.browser.type("[data-search]", "boom")
        #expect(s.browser.waitFor(5, "return [...document.querySelectorAll('[data-entry-id] mark.match')].map(m => m.textContent).join() === 'boom'"))
        try s.browser.run("document.querySelector('[data-search]').value = ''; document.querySelector('[data-search]').dispatchEvent(new Event('input'))")
        #expect(s.browser.waitFor(5, "return document.querySelectorAll('[data-entry-id]').length === 5"))

        // Pause: a line written meanwhile is exported (the output file has it) but the view holds still and counts it.
        try s.browser.click("[data-pause]")
        #expect(s.texts("[data-live-status]").first?.hasPrefix("❚❚ paused") == true)
        try RunToolsOutput.append(s.dir.file("logs/app.log"), "2026-11-20T10:00:05Z INFO while paused\n")
        #expect(RunTools.waitUntil { s.outputLines().contains { $0.contains("while paused") } })
        #expect(s.browser.waitFor(5, "return document.querySelector('[data-live-status]').textContent === '❚❚ paused · 1 new'"),
                "\(s.texts("[data-live-status]"))")
        #expect(!s.messages.contains("while paused"))
        #expect(try s.http.authorized("/api/info").json.flatMap { ($0 as? [String: Any])?["state"] as? String } == "recording", "the run is not paused")
        s.screenshot("paused")
        try s.browser.click("[data-pause]")
        #expect(RunTools.waitUntil { s.messages.last == "while paused" }, "\(s.messages)")
        #expect(s.texts("[data-live-status]") == ["● live"])

        // A mistyped token: the login form says so, and the token leaves the address bar.
        try s.browser.deleteCookies()
        try s.browser.open(s.base + "/?token=0123456789abcdef0123456789abcdef")
        #expect(s.browser.waitFor(10, "return !document.querySelector('[data-login]').hidden && !document.querySelector('[data-login-error]').hidden"))
        #expect(s.texts("[data-login-error]").first?.contains("not the one spytail printed") == true)
        #expect(!s.browser.url.contains("token="), "\(s.browser.url)")
        #expect(s.consoleErrors().allSatisfy { $0.contains("401") }, "\(s.consoleErrors())")
    }

    @Test
    func hostileMessagesRenderAsTextAndRunNothing() throws {
        let long = String(repeating: "W", count: 10 * 1024 * 1024)
        let hostile = [
            "<script>window.__pwned = 1</script>",
            "<img src=x onerror=\"window.__pwned = 2\">",
            "\u{1B}[31mred alert\u{1B}[0m and a bell\u{07}",
            "\"><svg onload=window.__pwned=3>",
        ]
        var text = ""
        for (i, message) in hostile.enumerated() { text += "2026-11-20T10:00:0\(i)Z INFO \(message)\n" }
        text += "2026-11-20T10:00:09Z INFO \(long)\n2026-11-20T10:00:10Z INFO after the long one\n"
        let s = try Session(lines: text)
        defer { s.stop() }
        #expect(RunTools.waitUntil(30) { s.messages.last == "after the long one" }, "\(s.messages.count) \(s.http.spytail.stderr)")
        let shown = s.messages
        #expect(shown.count == 6)
        #expect(shown.first == hostile[0] && shown[1] == hostile[1] && shown[3] == hostile[3], "\(shown.prefix(4))")
        #expect(shown[2] == "^[[31mred alert^[[0m and a bell^G", "\(shown[2])")
        #expect(s.count("[data-rows] .control") == 3, "ESC, ESC and BEL marked as control characters")
        #expect(try s.browser.run("return window.__pwned === undefined") as? Bool == true)
        #expect(s.count("[data-rows] img, [data-rows] script, [data-rows] svg") == 0)
        // The long line neither widens the page nor stalls it; its detail is cut and says so.
        #expect(try s.browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        try s.browser.run("document.querySelectorAll('[data-entry-id]')[4].click()")
        #expect(RunTools.waitUntil { s.texts("[data-detail-text]").first?.contains("more characters") == true })
        #expect(try s.browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        s.screenshot("hostile")
        // Nothing ran, nothing was even attempted: no console errors (a blocked inline script would log one).
        #expect(s.consoleErrors().isEmpty, "\(s.consoleErrors())")
        // The policy that would stop it if the page ever slipped.
        let policy = try s.http.request("/").header("Content-Security-Policy") ?? ""
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(policy)")
    }

    @Test
    func theTourWalksEveryStepOnceAndTheLoginAsksForTheToken() throws {
        let s = try Session(tour: true)
        defer { s.stop() }
        #expect(RunTools.waitUntil { s.count("[data-spotlight]") == 1 }, "no tour overlay")
        s.screenshot("tour")
        var seen: [String] = []
        for _ in 0..<10 {
            guard s.count("[data-spotlight]") == 1 else { break }
            seen.append(s.texts(".spotlight-bubble h2").first ?? "?")
            try s.browser.click("[data-spotlight-action=next]")
        }
        #expect(seen == ["Entries", "Categories", "Active filters", "Search", "The drawer", "State"], "\(seen)")
        #expect(s.count("[data-spotlight]") == 0)
        // Remembered: a reload does not bring it back (the page has started when its rows are in).
        try s.browser.open(s.base + "/")
        #expect(s.shows(Self.all))
        #expect(RunTools.waitUntil { s.texts("[data-connection]") == ["live"] })
        #expect(s.count("[data-spotlight]") == 0)
        // Asked for from the drawer, it comes back; Esc skips it.
        try s.browser.click("[data-open-drawer]")
        try s.browser.click("[data-start-tour]")
        #expect(RunTools.waitUntil { s.count("[data-spotlight]") == 1 })
        try s.browser.press("\u{E00C}")
        #expect(RunTools.waitUntil { s.count("[data-spotlight]") == 0 })

        // Without the cookie the page asks for the token; pasting it opens the dashboard.
        try s.browser.deleteCookies()
        try s.browser.open(s.base + "/")
        #expect(s.browser.waitFor(10, "return !document.querySelector('[data-login]').hidden"), "the login form is not shown")
        #expect(s.count("[data-entry-id]") == 0)
        try s.browser.type("[data-login-token]", s.http.token)
        try s.browser.click("[data-login-form] button[type=submit]")
        #expect(s.shows(Self.all), "\(s.messages)")
        #expect(s.browser.url == s.base + "/", "the token does not stay in the address bar: \(s.browser.url)")
    }

    @Test
    func onAPhoneInTheDarkNothingSpillsAndTheDrawerStillWorks() throws {
        let s = try Session()
        defer { s.stop() }
        #expect(s.shows(Self.all), "\(s.messages)")
        let background = "return getComputedStyle(document.body).backgroundColor"
        let light = try s.browser.run(background) as? String
        try s.browser.prefersColorScheme("dark")
        let dark = try s.browser.run(background) as? String
        #expect(light != nil && dark != nil && light != dark, "light \(light ?? "?"), dark \(dark ?? "?")")
        try s.browser.resize(width: 390, height: 844)
        #expect(s.browser.waitFor(5, "return window.innerWidth <= 400"))
        // The clock stays at phone width (the date goes).
        #expect(try s.browser.run("return [...document.querySelectorAll('[data-entry-id] .clock')].every(c => c.getClientRects().length > 0)") as? Bool == true)
        #expect(try s.browser.run("return [...document.querySelectorAll('[data-entry-id] .date')].every(c => c.getClientRects().length === 0)") as? Bool == true)
        #expect(try s.browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        try s.browser.click("[data-open-drawer]")
        #expect(s.browser.waitFor(5, """
            const d = document.querySelector('[data-drawer]').getBoundingClientRect();
            return !document.querySelector('[data-drawer]').hidden && d.width <= window.innerWidth && d.left >= 0
            """))
        try s.browser.click("button[data-set-state=\"idle\"]")
        #expect(RunTools.waitUntil { s.texts("[data-state-badge]") == ["idle"] })
        s.screenshot("phone-dark")
        // Esc closes the drawer and gives the focus back to the button that opened it.
        try s.browser.press("\u{E00C}")
        #expect(s.browser.waitFor(5, "return document.activeElement.matches('[data-open-drawer]')"))
    }

    /// The page's JavaScript unit tests, run by chromium on a page this test serves (Python's http.server over a
    /// folder of the test files and the dashboard's own modules): the shipped binary does not carry them.
    @Test
    func theDashboardsJavaScriptUnitTestsPassInTheBrowser() throws {
        guard WebDriver.available else { throw WebDriver.Failure(description: WebDriver.missing) }
        let dir = try RunTools.workspace(["site", "site/assets"])
        defer { dir.remove() }
        let dashboard = Harness.packageRoot.appendingPathComponent("Sources/SpytailHTTP/Dashboard")
        let unitTests = Harness.packageRoot.appendingPathComponent("Tests/EndToEndTests/DashboardUnitTests")
        for (from, to) in [(unitTests, "test.html"), (unitTests, "assets/tests.js"), (dashboard, "assets/model.js"),
                           (dashboard, "assets/spotlight.js"), (dashboard, "assets/favicon.svg")] {
            try FileManager.default.copyItem(atPath: from.appendingPathComponent((to as NSString).lastPathComponent).path, toPath: dir.file("site/" + to))
        }
        let port = try PrometheusScrapeTests.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", dir.file("site")]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: Python leaves SIGTERM as it finds it, and a test runner may hand it down ignored.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let page = "http://127.0.0.1:\(port)/test.html"
        #expect(RunTools.waitUntil(20) { (try? Harness.run("/usr/bin/curl", ["-sf", "--max-time", "2", "-o", "/dev/null", page]))?.status == 0 })
        let browser = try WebDriver(in: dir)
        defer { browser.quit() }
        try browser.open(page)
        #expect(browser.waitFor(20, "return document.querySelector('[data-test-summary]').dataset.done === 'true'"),
                "\(browser.texts("[data-test-summary]"))")
        let failed = browser.texts("[data-result=fail]")
        let passed = browser.texts("[data-result=pass]").count
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
        #expect(passed >= 20, "\(passed) passed")
        #expect(browser.consoleErrors().isEmpty, "\(browser.consoleErrors())")
    }

    /// The shipped binary serves the dashboard's page and modules, and nothing of its tests.
    @Test
    func theBinaryServesTheDashboardButNotItsTests() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        #expect(try http.request("/").status == 200)
        #expect(try http.request("/assets/model.js").status == 200)
        #expect(try http.request("/test").status == 404)
        #expect(try http.request("/assets/tests.js").status == 404)
    }
}

extension WebDriver {
    /// The text of each element `selector` finds, in document order.
    func texts(_ selector: String) -> [String] {
        ((try? run("return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", [selector])) as? [String]) ?? []
    }

    /// The browser console's errors, leaving out what the tests provoke on purpose.
    func consoleErrors() -> [String] {
        ((try? consoleLog()) ?? []).filter { $0.level == "SEVERE" }.map(\.message)
    }
}
