import Foundation
import Testing
import SpytailTestSupport

/// `run` shipping to a real ClickHouse server (Debian's 18.16, started here on loopback ports): every line
/// arrives once (`FINAL` collapses what a crash made spytail send twice) through rotations, a ClickHouse
/// crash and a spytail crash; a wrong table is named and nothing is lost after the fix; `where` routes;
/// batches stay within their limit; memory stays bounded while the server is down.
@Suite(.ownThread)
struct ClickHouseOutputTests {
    static let pattern = #"^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$"#

    static func config(_ server: ClickHouseServer, table: String = "logs", extraOutput: String = "", options: String = "",
                       http: Bool = false) -> String {
        #"""
        {\#(http ? #""http": {"listen": "127.0.0.1:0"},"# : "") "sources": [{"name": "app", "include": ["logs/app.log"]}], "checkpoints": "state/checkpoints.json",
         "parse": {"pattern": "\#(pattern)",
                   "categories": [{"name": "error", "display": "E", "match": {"field": "level", "prefix": "ERROR"}},
                                  {"name": "info", "display": "I", "default": true}]},
         "outputs": [{"type": "clickhouse", "url": "\#(server.url)", "table": "\#(table)", "user": "spy", "passwordFile": "ch.secret",
                      "createTable": true\#(options)}\#(extraOutput)]}
        """#
    }

    /// A workspace with logs/app.log (empty), the password file and a running server; nil when the
    /// server is not installed (recorded as a failure: scripts/install-deps installs it).
    static func prepare() throws -> (TemporaryDirectory, ClickHouseServer)? {
        #expect(ClickHouseServer.installed, "Debian's clickhouse-server is missing: scripts/install-deps installs it")
        guard ClickHouseServer.installed else { return nil }
        let dir = try RunTools.workspace()
        dir.write("logs/app.log", "")
        dir.write("ch.secret", ClickHouseServer.password + "\n")
        return (dir, try ClickHouseServer(in: dir))
    }

    static func counts(_ server: ClickHouseServer, _ table: String = "logs") -> (rows: Int, distinct: Int)? {
        guard let text = server.query("SELECT count(), uniqExact(message) FROM `\(table)` FINAL FORMAT TSV") else { return nil }
        let parts = text.split(separator: "\t").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    @Test func everyLineOnceThroughRotationsAClickHouseCrashAndASpytailCrash() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(server, options: #", "batchMaxRecords": 2000, "batchMaxMs": 200"#))
        let log = dir.file("logs/app.log")
        var spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")

        let total = 50_000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 4000, in: dir)
        let rotateConfig = dir.write("logrotate.conf", "\(log) {\n    rotate 10\n    create\n    compress\n    delaycompress\n    postrotate\n        \(RunTools.reopenCommand(writer.processIdentifier))\n    endscript\n}\n")
        func onDisk(_ n: Int) -> Bool {
            RunTools.waitUntil(30) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("seq=\(n) ") == true || !writer.isRunning }
        }
        func rotate() throws {
            let result = try RunTools.logrotate(rotateConfig, state: dir.file("state/logrotate.status"))
            #expect(result.status == 0, "logrotate: \(result.stderr)")
        }

        #expect(onDisk(8_000))
        try rotate()
        #expect(onDisk(16_000))
        server.kill()  // mid-stream, as a crash; back 5 s later
        Thread.sleep(forTimeInterval: 5)
        try server.start()
        #expect(onDisk(28_000))
        try rotate()
        #expect(onDisk(36_000))
        spytail.killHard()  // checkpoints are where ClickHouse acknowledged: what follows is sent again
        spytail = try RunningSpytail(config: config, in: dir)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)

        var last: (rows: Int, distinct: Int)?
        let complete = RunTools.waitUntil(90) {
            last = Self.counts(server)
            return last?.rows == total
        }
        #expect(complete, "FINAL holds \(String(describing: last)) of \(total)\n\(spytail.stderr.suffix(3000))")
        #expect(last?.distinct == total, "every line's text once: \(String(describing: last))")
        let raw = server.query("SELECT count() FROM logs FORMAT TSV").flatMap { Int($0) } ?? 0
        print("clickhouse: \(total) lines, \(raw) rows before FINAL (re-sent after the crashes: \(raw - total))")
        let sizes = server.insertSizes("logs")
        #expect(!sizes.isEmpty && sizes.allSatisfy { $0 <= 2000 }, "insert sizes \(sizes.max() ?? -1)")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    @Test func aWrongTableIsNamedAndNothingIsLostAfterTheFixAndAReload() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(server, table: "nosuch", options: #", "createTable": false, "batchMaxMs": 50"#)
            .replacingOccurrences(of: #""createTable": true, "createTable": false"#, with: #""createTable": false"#))
        let spytail = try RunningSpytail(config: config, in: dir)
        defer { _ = spytail.stop() }
        var text = ""
        for i in 1...100 { text += "2026-11-20T10:00:00Z INFO line \(i)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        #expect(RunTools.waitUntil { spytail.stderr.contains("nosuch") && spytail.stderr.contains("doesn't exist") },
                "the server's own text naming the table: \(spytail.stderr)")
        #expect(spytail.stderr.contains("nothing is dropped: fix the config and reload"))

        // The fix: the right table (created); the config file changes, run reloads it by itself.
        dir.write("spytail.json", Self.config(server, options: #", "batchMaxMs": 50"#))
        #expect(RunTools.waitUntil(30) { Self.counts(server)?.rows == 100 }, "\(spytail.stderr)")
        #expect(Self.counts(server)?.distinct == 100)
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    @Test func whereRoutesAndEveryBatchStaysWithinItsLimit() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let errors = #", {"type": "clickhouse", "url": "\#(server.url)", "table": "errors", "user": "spy", "passwordFile": "ch.secret", "createTable": true, "where": {"category": "error"}}"#
        let config = dir.write("spytail.json", Self.config(server, extraOutput: errors, options: #", "batchMaxRecords": 7, "batchMaxMs": 20"#))
        var text = ""
        for i in 1...200 { text += "2026-11-20T10:00:00Z \(i % 10 == 0 ? "ERROR" : "INFO") line \(i)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(30) { Self.counts(server)?.rows == 200 && Self.counts(server, "errors")?.rows == 20 },
                "logs \(String(describing: Self.counts(server))), errors \(String(describing: Self.counts(server, "errors")))\n\(spytail.stderr)")
        #expect(server.query("SELECT count() FROM errors WHERE category != 'error' FORMAT TSV") == "0")
        // The parsed time (2026-11-20T10:00:00Z), the tags array, the fields as JSON text, the source.
        #expect(server.query("SELECT uniqExact(toUnixTimestamp(time)), min(toUnixTimestamp(time)) FROM logs FORMAT TSV") == "1\t1795168800")
        #expect(server.query("SELECT visitParamExtractString(fields, 'level'), path, offset FROM logs WHERE message = 'line 10' FORMAT TSV")
                == "ERROR\t\(dir.file("logs/app.log"))\t\((0..<9).reduce(0) { $0 + "2026-11-20T10:00:00Z INFO line \($1 + 1)\n".utf8.count })")
        let sizes = server.insertSizes("logs")
        #expect(sizes.reduce(0, +) == 200 && sizes.allSatisfy { $0 <= 7 }, "insert sizes \(sizes)")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    @Test func serverDownFor30sAt3000LinesPerSecondMemoryStaysBoundedAndEverythingArrives() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(server, options: #", "bufferMaxRecords": 20000"#, http: true))
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")
        let port = spytail.stderr.split(separator: "\n").first { $0.contains("http: listening on") }.flatMap { Int($0.split(separator: ":").last ?? "") } ?? 0
        func get(_ path: String) -> (status: Int, body: String) {
            let result = try? Harness.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}", "--max-time", "5", "http://127.0.0.1:\(port)\(path)"])
            let text = result?.stdoutText ?? ""
            return (Int(text.split(separator: "\n").last ?? "") ?? 0, text)
        }
        func metric(_ sample: String) -> Double? {
            get("/metrics").body.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(RunTools.waitUntil { server.query("EXISTS TABLE logs FORMAT TSV") == "1" })
        server.kill()
        let total = 90_000
        let writer = try RunTools.startWriter(dir.file("logs/app.log"), first: 1, count: total, rate: 3000, in: dir)
        var peakKiB = 0
        func sample() {
            let status = (try? String(contentsOfFile: "/proc/\(spytail.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            peakKiB = max(peakKiB, Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0)
        }
        let down = Date()
        var sawPaused = false
        while Date().timeIntervalSince(down) < 30 {  // the outage lasts 30 s: sample memory and the probes meanwhile
            sample()
            if !sawPaused && get("/readyz").status == 503 && metric("spytail_reading_paused") == 1 {
                sawPaused = true
                // The pause is published at once; the counters come with the next snapshot (every 250 ms at
                // most, and only when the loop turns): under load they can lag the pause by one snapshot.
                #expect(RunTools.waitUntil(5) { metric(#"spytail_records_unacknowledged{output="0"}"#) == 20000 },
                        "\(get("/metrics").body)")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(sawPaused, "/readyz 503 and spytail_reading_paused 1 while the buffer is full")
        #expect(spytail.stderr.contains("retrying with backoff"), "\(spytail.stderr)")
        try server.start()
        writer.waitUntilExit()
        // A generous deadline for a loaded machine. The rest once never came (24,995 rows): a read cut short by the
        // full buffer was not finished once it had room (TailerFullOutputTests has it now); an earlier recovery of
        // over 90 s (55,106 rows by then) was most likely the same.
        #expect(RunTools.waitUntil(240) { Self.counts(server)?.rows == total },
                "\(String(describing: Self.counts(server))) of \(total)\n\(spytail.stderr.suffix(2000))")
        sample()
        print("clickhouse down 30 s at 3000 lines/s: peak RSS \(peakKiB / 1024) MiB (bufferMaxRecords 20000)")
        #expect(peakKiB > 0 && peakKiB < 200 * 1024, "peak RSS \(peakKiB) KiB")
        #expect(spytail.stderr.contains("delivering again after"), "\(spytail.stderr)")
        #expect(RunTools.waitUntil(60) { metric(#"spytail_records_acknowledged_total{output="0"}"#) == Double(total) && get("/readyz").status == 200 })
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    @Test func aStopWaitsAtMostTheShutdownTimeoutAndCheckpointsOnlyWhatWasAcknowledged() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(server, options: #", "batchMaxMs": 50, "shutdownTimeoutMs": 1500"#))
        var text = ""
        for i in 1...300 { text += "2026-11-20T10:00:00Z INFO first \(i)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { Self.counts(server)?.rows == 300 }, "\(first.stderr)")
        server.kill()
        text = ""
        for i in 1...200 { text += "2026-11-20T10:00:01Z INFO second \(i)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        #expect(RunTools.waitUntil { first.stderr.contains("retrying with backoff") }, "\(first.stderr)")
        let (status, seconds) = first.stop()
        #expect(status == 0, "\(first.stderr)")
        #expect(seconds < 5, "the stop took \(seconds) s with shutdownTimeoutMs 1500")
        #expect(first.stderr.contains("200 record(s) not acknowledged at stop"), "\(first.stderr)")

        // The checkpoint stayed after the first 300: the next run sends the 200 again, once the server is back.
        try server.start()
        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { Self.counts(server)?.rows == 500 }, "\(String(describing: Self.counts(server)))\n\(second.stderr)")
        #expect(Self.counts(server)?.distinct == 500)
        #expect(second.stop().status == 0, "\(second.stderr)")
    }

    /// HTTPS: a server whose certificate comes from a private authority is refused (said, with the hint to
    /// `caFile`, nothing lost) until the config names that authority in `caFile`; then every row arrives.
    @Test func httpsIsVerifiedAndAPrivateAuthorityIsTrustedThroughCaFile() throws {
        #expect(ClickHouseServer.installed, "Debian's clickhouse-server is missing: scripts/install-deps installs it")
        guard ClickHouseServer.installed else { return }
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        dir.write("logs/app.log", "")
        dir.write("ch.secret", ClickHouseServer.password + "\n")
        let authority = try TestAuthority(in: dir.file("pki"))
        let server = try ClickHouseServer(in: dir, tls: authority.server)
        defer { server.kill() }
        func config(_ options: String) -> String {
            Self.config(server, options: #", "batchMaxMs": 50"# + options)
                .replacingOccurrences(of: server.url, with: server.httpsURL)
        }
        let file = dir.write("spytail.json", config(""))
        var text = ""
        for i in 1...100 { text += "2026-11-20T10:00:00Z INFO secure \(i)\n" }
        try RunToolsOutput.append(dir.file("logs/app.log"), text)
        let spytail = try RunningSpytail(config: file, in: dir)
        defer { _ = spytail.stop() }
        #expect(RunTools.waitUntil { spytail.stderr.contains("CERTIFICATE_VERIFY_FAILED") && spytail.stderr.contains("caFile") },
                "the refused certificate is said, with the way out: \(spytail.stderr)")
        #expect(Self.counts(server) == nil, "no table, no row before the authority is trusted")

        dir.write("spytail.json", config(#", "caFile": "pki/ca.pem""#))
        #expect(RunTools.waitUntil(30) { Self.counts(server)?.rows == 100 }, "\(String(describing: Self.counts(server)))\n\(spytail.stderr)")
        #expect(Self.counts(server)?.distinct == 100)
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    /// The two insert formats (TabSeparated, the default, and JSONEachRow) fill the same columns with the same
    /// values through the real server, hostile text included: tabs, backslashes, both quotes, a control byte,
    /// a carriage return, invalid UTF-8, non-ASCII text, a continuation line, no timestamp, a time before 1970.
    @Test func bothInsertFormatsStoreTheSameRows() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let json = #", {"type": "clickhouse", "url": "\#(server.url)", "table": "logs_json", "user": "spy", "passwordFile": "ch.secret", "createTable": true, "insertFormat": "JSONEachRow", "batchMaxMs": 50}"#
        let config = dir.write("spytail.json", Self.config(server, extraOutput: json, options: #", "batchMaxMs": 50"#)
            .replacingOccurrences(of: #""categories":"#, with: #""multiline": {"continuation": "^\\s"}, "categories":"#))
        var log: [UInt8] = []
        log += Array("2026-11-20T10:00:00Z ERROR tab\there back\\slash 'single' \"double\" [x] {\"j\":1}\n".utf8)
        log += Array("\tat continuation() with 'quote' and \\ and \"dq\"\n".utf8)
        log += Array("2026-11-20T10:00:01Z INFO control ".utf8) + [0x01, 0x20, 0x0D, 0x20, 0xFF, 0xC3] + Array(" end\n".utf8)
        log += Array("no timestamp at all\n".utf8)
        log += Array("1969-12-31T23:59:59Z INFO before the epoch\n".utf8)
        log += Array("2026-11-20T10:00:02Z INFO ünïcødé ✓ 日本語\n".utf8)
        try RunToolsOutput.append(dir.file("logs/app.log"), String(decoding: log, as: UTF8.self))
        let spytail = try RunningSpytail(config: config, in: dir)
        defer { _ = spytail.stop() }
        #expect(RunTools.waitUntil(30) { Self.counts(server)?.rows == 5 && Self.counts(server, "logs_json")?.rows == 5 },
                "\(String(describing: Self.counts(server))) \(String(describing: Self.counts(server, "logs_json")))\n\(spytail.stderr)")
        let columns = "id, timestamp, toUnixTimestamp(time), category, tags, message, detail, fields, path, offset, host"
        let tabSeparated = server.query("SELECT \(columns) FROM logs ORDER BY id FORMAT TSV")
        let jsonEachRow = server.query("SELECT \(columns) FROM logs_json ORDER BY id FORMAT TSV")
        #expect(tabSeparated != nil && tabSeparated == jsonEachRow, "TabSeparated:\n\(tabSeparated ?? "nil")\nJSONEachRow:\n\(jsonEachRow ?? "nil")")
        #expect(server.query("SELECT message, detail FROM logs WHERE offset = 0 FORMAT TSV")
                == #"tab\there back\\slash \'single\' "double" [x] {"j":1}\#t\tat continuation() with \'quote\' and \\ and "dq""#,
                "as the server's TSV writes them back (it escapes ' too)")
        #expect(server.query("SELECT message FROM logs WHERE message LIKE 'ünïcødé%' FORMAT TSV") == "ünïcødé ✓ 日本語")
        #expect(server.query("SELECT count() FROM logs WHERE time IS NULL FORMAT TSV") == "2", "no timestamp, and one before 1970")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }
}
