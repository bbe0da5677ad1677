import Foundation
import Testing
import SpytailTestSupport

/// A real Prometheus server (Debian's `prometheus`, started here on a loopback port) scrapes `run` every
/// second; PromQL through its HTTP API must give the records the output file holds. `promtool check metrics`
/// must accept the exposition.
@Suite(.ownThread, .serialized)
struct PrometheusScrapeTests {
    static let prometheus = "/usr/bin/prometheus", promtool = "/usr/bin/promtool"

    /// A loopback port nobody listens on now, and none handed to another test of this process before: the kernel
    /// may give a port it just let go to the next bind, and two ClickHouse tests started side by side got the same
    /// one (the second server could not listen, and both tests then talked to the first).
    static func freePort() throws -> Int {
        for _ in 0..<20 {
            let result = try Harness.run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            let port = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            handedOutLock.lock()
            defer { handedOutLock.unlock() }
            if port > 0, handedOut.insert(port).inserted { return port }
        }
        return 0
    }

    nonisolated(unsafe) private static var handedOut = Set<Int>()
    private static let handedOutLock = NSLock()

    @Test func prometheusScrapesTheRecordsTheOutputHolds() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.prometheus) && FileManager.default.isExecutableFile(atPath: Self.promtool),
                "Debian's prometheus package is missing: scripts/install-deps installs it")
        guard FileManager.default.isExecutableFile(atPath: Self.prometheus) else { return }
        let dir = try RunTools.workspace(["logs", "state", "tsdb"])
        defer { dir.remove() }
        var text = ""
        for i in 0..<40 { text += "2026-11-20T10:00:\(String(format: "%02d", i % 60))Z \(i % 4 == 0 ? "DEBUG" : "INFO") line \(i)\n" }
        try text.write(toFile: dir.file("logs/app.log"), atomically: true, encoding: .utf8)
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        #expect(http.port > 0, "\(http.spytail.stderr)")

        let port = try Self.freePort()
        try """
            global: { scrape_interval: 1s, evaluation_interval: 1s }
            scrape_configs:
              - job_name: spytail
                static_configs: [ { targets: ["127.0.0.1:\(http.port)"] } ]
            """.write(toFile: dir.file("prometheus.yml"), atomically: true, encoding: .utf8)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.prometheus)
        server.arguments = ["--config.file=\(dir.file("prometheus.yml"))", "--storage.tsdb.path=\(dir.file("tsdb"))",
                            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        server.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: dir.file("prometheus.stderr"), contents: nil)
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("prometheus.stderr")))
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }

        func query(_ promql: String) -> Double? {
            let encoded = promql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? promql
            guard let result = try? Harness.run("/usr/bin/curl", ["-s", "--max-time", "5", "http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"]),
                  let json = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
                  let data = json["data"] as? [String: Any], let first = (data["result"] as? [[String: Any]])?.first,
                  let value = first["value"] as? [Any], let number = value.last as? String else { return nil }
            return Double(number)
        }
        let written = { TextLines.ofFile(dir.file("out.jsonl")).count }
        #expect(RunTools.waitUntil { written() == 40 })
        #expect(RunTools.waitUntil(60) { query(#"spytail_records_written_total{output="0"}"#) == Double(written()) },
                "prometheus says \(String(describing: query(#"spytail_records_written_total{output="0"}"#))), the output holds \(written())")
        #expect(query(#"spytail_entries_total{category="debug"}"#) == 10)
        #expect(query(#"up{job="spytail"}"#) == 1)

        // More lines: the scraped counter follows.
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:01:00Z INFO one more\n2026-11-20T10:01:01Z INFO and another\n")
        #expect(RunTools.waitUntil(60) { query(#"spytail_records_written_total{output="0"}"#) == 42 })

        let check = try Harness.run("/bin/sh", ["-c", "curl -s http://127.0.0.1:\(http.port)/metrics | \(Self.promtool) check metrics"])
        #expect(check.status == 0, "promtool: \(check.stdoutText) \(check.stderr)")
    }
}
