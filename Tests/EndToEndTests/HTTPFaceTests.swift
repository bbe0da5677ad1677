import Foundation
import Testing
import SpytailTestSupport

/// `run`'s HTTP face over real sockets (requests through the real curl): probes, metrics, the API, the token
/// rules, view filters, state changes, server-sent events, a viewer that never reads, and bad settings.
@Suite(.ownThread, .serialized)
struct HTTPFaceTests {
    static let lines = """
        2026-11-20T10:00:00Z INFO [net] hello from the network
        2026-11-20T10:00:01Z DEBUG noisy detail
        2026-11-20T10:00:02Z ERROR boom happened

        """

    func outputLines(_ dir: TemporaryDirectory) -> [String] {
        TextLines.ofFile(dir.file("out.jsonl"))
    }

    @Test func probesMetricsApiAndTheTokenRules() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        try Self.lines.write(toFile: dir.file("logs/app.log"), atomically: true, encoding: .utf8)
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        #expect(http.port > 0 && http.token.count == 32, "\(http.spytail.stderr)")
        #expect(RunTools.waitUntil { (try? http.messages().count) == 3 }, "\(http.spytail.stderr)")

        let health = try http.request("/healthz"), ready = try http.request("/readyz")
        #expect(health.status == 200 && ready.status == 200, "\(health.body) \(ready.body)")

        // The token: none, wrong, bearer; the cookie from /?token=; a cookie alone cannot change state.
        let none = try http.request("/api/info")
        #expect(none.status == 401 && none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(try http.request("/api/info", bearer: "0123456789abcdef0123456789abcdef").status == 401)
        #expect(try http.request("/?token=wrong").status == 401)
        let login = try http.request("/?token=\(http.token)")
        let cookie = login.header("Set-Cookie") ?? ""
        #expect(login.status == 303 && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(login.headers)")
        let session = String(cookie.prefix { $0 != ";" })
        #expect(try http.request("/api/info", cookie: session).status == 200)
        #expect(try http.request("/api/state", method: "POST", cookie: session, body: #"{"state":"idle"}"#).status == 403)
        #expect(try http.request("/api/entries", cookie: "spytail_session=nope").status == 401)

        let info = try http.authorized("/api/info")
        let object = info.json as? [String: Any]
        #expect(info.status == 200 && object?["state"] as? String == "recording", "\(info.body)")
        let files = object?["files"] as? [[String: Any]] ?? []
        #expect(files.contains { ($0["path"] as? String)?.hasSuffix("logs/app.log") == true && $0["status"] as? String == "following" }, "\(info.body)")
        let outputs = object?["outputs"] as? [[String: Any]] ?? []
        #expect(outputs.first?["records"] as? Int == 3, "\(info.body)")
        #expect((object?["libraries"] as? [String: Any])?["pcre2"] != nil)
        // The config's words, for the dashboard: categories with their counts, tags.
        let categories = object?["categories"] as? [[String: Any]] ?? []
        #expect(categories.map { $0["name"] as? String } == ["error", "warning", "debug", "info", "gap"], "\(info.body)")
        #expect(categories.first { $0["name"] as? String == "debug" }?["count"] as? Int == 1)
        #expect((object?["tags"] as? [[String: Any]])?.first?["name"] as? String == "net")

        // The page's way to its bearer token: the cookie (or the token itself), never nothing.
        #expect(try http.request("/api/session").status == 401)
        #expect((try http.request("/api/session", cookie: session).json as? [String: Any])?["token"] as? String == http.token)
        // /api/entries says where a stream picks up.
        #expect(try http.authorized("/api/entries").header("X-Spytail-Through") == "3")

        // View filters: the same conditions as the config, per viewer; bad ones are a 400 naming them.
        #expect(try http.messages("?exclude=category:debug") == ["hello from the network", "boom happened"])
        #expect(try http.messages("?exclude=tag:net&exclude=prefix:noisy") == ["boom happened"])
        #expect(try http.messages("?q=boom") == ["boom happened"])
        #expect(try http.messages("?exclude=contains:o&limit=5") == [])
        #expect(try http.messages("?limit=1") == ["boom happened"])
        let unknown = try http.authorized("/api/entries?exclude=category:nope")
        #expect(unknown.status == 400 && unknown.body.contains("nope"), "\(unknown.body)")
        let badMode = try http.authorized("/api/entries?exclude=colour:red")
        #expect(badMode.status == 400 && badMode.body.contains("colour"), "\(badMode.body)")
        // Any condition of the config, as JSON, to include or exclude; the fields are the record's.
        func query(_ name: String, _ json: String) -> String { "\(name)=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        #expect(try http.messages("?" + query("include", #"{"field": "level", "in": ["ERROR", "DEBUG"]}"#)) == ["noisy detail", "boom happened"])
        #expect(try http.messages("?" + query("include", #"{"not": {"tag": "net"}}"#) + "&exclude=category:error") == ["noisy detail"])
        let badTest = try http.authorized("/api/entries?" + query("include", #"{"field": "level", "gt": "x"}"#))
        #expect(badTest.status == 400 && badTest.body.contains("include.gt: expected a number"), "\(badTest.body)")
        #expect(try http.authorized("/etc/passwd").status == 404)
        #expect(try http.authorized("/api/../../etc/passwd").status == 404)

        // Metrics: what was read, classified and written.
        #expect(try http.metric(#"spytail_records_written_total{output="0"}"#) == 3)
        #expect(try http.metric(#"spytail_entries_total{category="debug"}"#) == 1)
        #expect(try http.metric(#"spytail_lines_read_total{source="app"}"#) == 3)
        #expect(try http.metric(#"spytail_state{state="recording"}"#) == 1)
        #expect(try http.metric("process_resident_memory_bytes").map { $0 > 1_000_000 } == true)

        // State through the API: idle exports nothing, back to recording writes the gap record.
        let idle = try http.request("/api/state", method: "POST", bearer: http.token, body: #"{"state":"idle"}"#)
        #expect(idle.status == 200 && idle.body.contains(#""state":"idle""#), "\(idle.body)")
        #expect(try http.metric(#"spytail_state{state="idle"}"#) == 1)
        #expect(try http.request("/readyz").status == 200)
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:00:03Z INFO while idle\n")
        #expect(RunTools.waitUntil {
            ((try? http.authorized("/api/info").json as? [String: Any])?["files"] as? [[String: Any]])?.first?["behind"] as? Int == 0
        })
        #expect(outputLines(dir).count == 3)
        let back = try http.request("/api/state", method: "POST", bearer: http.token, body: #"{"state":"recording"}"#)
        #expect(back.status == 200, "\(back.body)")
        #expect(RunTools.waitUntil { outputLines(dir).contains { $0.contains(#""category":"gap""#) && $0.contains("idle") } })
        #expect(try http.request("/api/state", method: "POST", bearer: http.token, body: #"{"state":"sleepy"}"#).status == 400)
        let disabled = try http.request("/api/state", method: "POST", bearer: http.token, body: #"{"state":"disabled"}"#)
        #expect(disabled.status == 200, "\(disabled.body)")
        let notReady = try http.request("/readyz")
        #expect(notReady.status == 503 && notReady.body.contains("disabled"), "\(notReady.body)")
        #expect(try http.request("/healthz").status == 200)
        #expect(try http.request("/api/reload", method: "POST", bearer: http.token).status == 202)
    }

    @Test func theStreamDeliversEntriesAndTheViewerLimitHolds() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        try Self.lines.write(toFile: dir.file("logs/app.log"), atomically: true, encoding: .utf8)
        try "0123456789abcdef-token\n".write(toFile: dir.file("state/token"), atomically: true, encoding: .utf8)
        let http = try HTTPRun(in: dir, http: #""tokenFile": "state/token", "maxViewers": 1"#)
        defer { _ = http.spytail.stop() }
        #expect(!http.spytail.stderr.contains("?token="), "a token from a file is never printed")
        let token = "0123456789abcdef-token"
        let streamFile = dir.file("stream.out")
        FileManager.default.createFile(atPath: streamFile, contents: nil)
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-N", "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:\(http.port)/api/stream?exclude=category:debug&include=%7B%22not%22%3A%7B%22field%22%3A%22level%22%2C%22equals%22%3A%22ERROR%22%7D%7D"]
        curl.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: streamFile))
        try curl.run()
        defer { kill(curl.processIdentifier, SIGKILL); curl.waitUntilExit() }
        let stream = { (try? String(contentsOfFile: streamFile, encoding: .utf8)) ?? "" }
        #expect(RunTools.waitUntil { stream().contains("event: state") }, "\(stream())")
        #expect(RunTools.waitUntil { (try? http.metric("spytail_viewers")) == 1 })
        let second = try http.request("/api/stream", bearer: token)
        #expect(second.status == 503 && second.body.contains("maxViewers"), "\(second.status) \(second.body)")

        let sent = Date()
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:00:05Z WARN streamed warning\n2026-11-20T10:00:06Z DEBUG hidden by the view\n2026-11-20T10:00:06Z ERROR not included\n2026-11-20T10:00:07Z INFO the last one\n")
        #expect(RunTools.waitUntil { stream().contains("streamed warning") }, "\(stream())")
        #expect(Date().timeIntervalSince(sent) < 5)
        #expect(stream().contains("event: entry\ndata: {\"id\":"))
        #expect(RunTools.waitUntil { stream().contains("the last one") }, "\(stream())")
        #expect(!stream().contains("hidden by the view") && !stream().contains("not included"))
        // Each record on the stream is the jsonl record.
        let data = stream().split(separator: "\n").filter { $0.hasPrefix("data: {\"id\"") }.map { $0.dropFirst(6) }
        #expect(data.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        let state = try http.request("/api/state", method: "POST", bearer: token, body: #"{"state":"idle"}"#)
        #expect(state.status == 200)
        #expect(RunTools.waitUntil { stream().contains(#"data: {"state":"idle"}"#) }, "\(stream())")
    }

    @Test func aViewerThatNeverReadsSlowsNothingAndIsToldWhatItMissed() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        FileManager.default.createFile(atPath: dir.file("logs/app.log"), contents: nil)
        let http = try HTTPRun(in: dir, http: #""tokenFile": "state/token", "recentEntries": 1000"#, extra: "") { try "slow-viewer-token-0123\n".write(toFile: dir.file("state/token"), atomically: true, encoding: .utf8) }
        defer { _ = http.spytail.stop() }
        // A raw socket that asks for the stream and then never reads a byte.
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /api/stream HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer slow-viewer-token-0123\\r\\n\\r\\n")
            time.sleep(600)
            """
        let viewer = Process()
        viewer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        viewer.arguments = ["-c", script, String(http.port)]
        try viewer.run()
        defer { kill(viewer.processIdentifier, SIGKILL); viewer.waitUntilExit() }
        #expect(RunTools.waitUntil { (try? http.metric("spytail_viewers")) == 1 })
        // 100,000 lines of ~200 bytes: far more than the socket buffers and the 1,000-entry ring hold.
        let padding = String(repeating: "x", count: 150)
        var text = ""
        for i in 0..<100_000 { text += "2026-11-20T10:00:00Z INFO line \(i) \(padding)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        #expect(RunTools.waitUntil(120) { outputLines(dir).count == 100_000 }, "\(outputLines(dir).count) \(http.spytail.stderr)")
        #expect(RunTools.waitUntil { (try? http.metric("spytail_viewer_entries_skipped_total")).map { $0 > 0 } == true })
        let rss = try http.metric("process_resident_memory_bytes") ?? .infinity
        // 20 MB went through: kept, it would show; a sanitizer's own bookkeeping is far larger than that.
        let bound: Double = Harness.binaryIsSanitized ? 2_000_000_000 : 150_000_000
        #expect(rss < bound, "resident memory \(rss)")
    }

    @Test func aListenAddressInUseIsAClearErrorAndBadSettingsAreNamed() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        FileManager.default.createFile(atPath: dir.file("logs/app.log"), contents: nil)
        let first = try HTTPRun(in: dir)
        defer { _ = first.spytail.stop() }
        let taken = try Harness.spytail(["run", "-c", dir.file("config.json"), "--http", "127.0.0.1:\(first.port)"])
        #expect(taken.status == 2)
        #expect(taken.stderr.contains("cannot listen on 127.0.0.1:\(first.port): address already in use"), "\(taken.stderr)")
        let badFlag = try Harness.spytail(["run", "-c", dir.file("config.json"), "--http", "localhost:web"])
        #expect(badFlag.status == 2 && badFlag.stderr.contains("port 'web' is not a number"), "\(badFlag.stderr)")

        try RunTools.config(extra: #", "http": {"listen": "127.0.0.1:x9880", "tokenFile": "state/missing"}"#)
            .write(toFile: dir.file("bad.json"), atomically: true, encoding: .utf8)
        let check = try Harness.spytail(["check", "-c", dir.file("bad.json")])
        #expect(check.status == 2)
        #expect(check.stderr.contains("http.listen: port 'x9880' is not a number"), "\(check.stderr)")
        try RunTools.config(extra: #", "http": {"listen": "127.0.0.1:0", "tokenFile": "state/missing"}"#)
            .write(toFile: dir.file("bad2.json"), atomically: true, encoding: .utf8)
        let missing = try Harness.spytail(["check", "-c", dir.file("bad2.json")])
        #expect(missing.status == 2 && missing.stderr.contains("http.tokenFile: file '"), "\(missing.stderr)")
    }
}

extension HTTPFaceTests {
    @Test func aReloadMovesTheServerOrIsRefusedWhenTheNewAddressCannotBeBound() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        FileManager.default.createFile(atPath: dir.file("logs/app.log"), contents: nil)
        let otherDir = try RunTools.workspace()
        defer { otherDir.remove() }
        let other = try HTTPRun(in: otherDir)  // holds a port of its own
        defer { _ = other.spytail.stop() }
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        let config = dir.file("config.json")
        let original = try String(contentsOfFile: config, encoding: .utf8)

        // A port already taken: the reload is refused, the running server stays where it was.
        try original.replacingOccurrences(of: "127.0.0.1:0", with: "127.0.0.1:\(other.port)").write(toFile: config, atomically: true, encoding: .utf8)
        http.spytail.signal(SIGHUP)
        #expect(RunTools.waitUntil { http.spytail.stderr.contains("cannot listen on 127.0.0.1:\(other.port): address already in use") },
                "\(http.spytail.stderr)")
        #expect(http.spytail.stderr.contains("config change refused"))
        #expect(try http.request("/healthz").status == 200)

        // A free port: the new one serves, the old one is closed.
        let free = try PrometheusScrapeTests.freePort()
        try original.replacingOccurrences(of: "127.0.0.1:0", with: "127.0.0.1:\(free)").write(toFile: config, atomically: true, encoding: .utf8)
        http.spytail.signal(SIGHUP)
        #expect(RunTools.waitUntil { http.spytail.stderr.contains("listening on 127.0.0.1:\(free)") }, "\(http.spytail.stderr)")
        let moved = try Harness.run("/usr/bin/curl", ["-s", "--max-time", "10", "http://127.0.0.1:\(free)/healthz"])
        #expect(moved.stdoutText == "ok\n")
        #expect(RunTools.waitUntil { (try? http.request("/healthz").status) != 200 }, "the old port still answers")
    }

    @Test func aClientThatSendsItsRequestByteByByteIsDropped() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        FileManager.default.createFile(atPath: dir.file("logs/app.log"), contents: nil)
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        // One byte a second of a request head that never ends; the server must hang up within ~10 s.
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            start = time.time()
            try:
                for i in range(60):
                    s.sendall(b"GET /healthz HTTP/1.1\\r\\nX-Slow: "[i % 20:i % 20 + 1] or b"a")
                    s.settimeout(1.0)
                    try:
                        if s.recv(1) == b"":
                            break
                    except socket.timeout:
                        pass
            except OSError:
                pass
            print(round(time.time() - start))
            """
        let result = try Harness.run("/usr/bin/python3", ["-c", script, String(http.port)])
        let seconds = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
        #expect(seconds <= 20, "the slow client was kept for \(seconds) s")
        #expect(try http.request("/healthz").status == 200)
    }
}
