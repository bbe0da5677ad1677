import Foundation
import Testing
import SpytailTestSupport

/// A measurement, not a test: off unless `SPYTAIL_MEASURE_DASHBOARD=1`, and it asserts no timing. With
/// 10,000 lines/s flowing for 10 s into a followed file, it prints (1) the time from `write(2)` of a probe line
/// to its row being in the dashboard's DOM (p50, p99, max, read through WebDriver: a MutationObserver in the page
/// stamps each probe row), and (2) the export figures of the same run with and without the dashboard open:
/// records written, and how long after the last write the output held them all. Run it on a release build:
///
///     swift build -c release && SPYTAIL_BIN=$PWD/.build/release/spytail SPYTAIL_MEASURE_DASHBOARD=1 \
///         swift test --filter DashboardMeasurement
@Suite(.ownThread, .serialized)
struct DashboardMeasurement {
    static let enabled = ProcessInfo.processInfo.environment["SPYTAIL_MEASURE_DASHBOARD"] == "1" && WebDriver.available
    static let rate = 10_000, seconds = 10, probeEvery = 100

    /// Writes `rate` lines a second for `seconds` in 10 ms batches; every `probeEvery`-th line is `probe N`, and
    /// the wall-clock millisecond of the write that carried it goes to `times` as `N MS`.
    static let writer = """
        import sys, time, os
        path, times, rate, seconds, every = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        stamps = []
        per = rate // 100
        start = time.time()
        n = 0
        for tick in range(seconds * 100):
            lines = []
            probes = []
            for i in range(per):
                if n % every == 0:
                    lines.append("2026-11-20T10:00:00Z INFO probe %d\\n" % n)
                    probes.append(n)
                else:
                    lines.append("2026-11-20T10:00:00Z INFO [net] filler %d with some words to make it a line of ordinary size\\n" % n)
                n += 1
            os.write(fd, "".join(lines).encode())
            now = int(time.time() * 1000)
            stamps += ["%d %d" % (p, now) for p in probes]
            delay = start + (tick + 1) / 100 - time.time()
            if delay > 0: time.sleep(delay)
        open(times, "w").write("\\n".join(stamps) + "\\n")
        print(n)
        """

    struct Figures {
        var records = 0
        var drainMilliseconds = 0
    }

    /// One run: writer at `rate`, optionally a browser on the dashboard; returns export figures and the
    /// probes' latencies in milliseconds (empty without a browser).
    func measure(withDashboard: Bool) throws -> (Figures, [Int]) {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        FileManager.default.createFile(atPath: dir.file("logs/app.log"), contents: nil)
        let http = try HTTPRun(in: dir)
        defer { _ = http.spytail.stop() }
        var browser: WebDriver?
        if withDashboard {
            let b = try WebDriver(in: dir)
            try b.open("http://127.0.0.1:\(http.port)/?token=\(http.token)")
            try b.run("localStorage.setItem('spytail.tour.v1.done', '1')")
            try b.open("http://127.0.0.1:\(http.port)/")
            _ = b.waitFor(10, "return document.querySelector('[data-connection]').textContent === 'live'")
            try b.run("""
                window.__probes = {};
                window.__markers = [];
                new MutationObserver((changes) => {
                  const now = Date.now();
                  for (const change of changes) for (const node of change.addedNodes) {
                    if (node.dataset && node.dataset.skipped) window.__markers.push(node.textContent);
                    const m = node.querySelector && node.querySelector('.message');
                    const match = m && /^probe (\\d+)$/.exec(m.textContent);
                    if (match && !(match[1] in window.__probes)) window.__probes[match[1]] = now;
                  }
                }).observe(document.querySelector('[data-rows]'), { childList: true });

                """)
            browser = b
        }
        defer { browser?.quit() }
        let result = try Harness.run("/usr/bin/python3", ["-c", Self.writer, dir.file("logs/app.log"), dir.file("times.txt"),
                                                          String(Self.rate), String(Self.seconds), String(Self.probeEvery)])
        let written = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let ended = Date()
        let output = dir.file("out.jsonl")
        // Counted by wc: the test's own debug-built counting of 8 MB would be slower than what it measures.
        let lines = { Int((try? Harness.run("/usr/bin/wc", ["-l", output]))?.stdoutText.split(separator: " ").first ?? "") ?? 0 }
        #expect(RunTools.waitUntil(60) { lines() >= written }, "\(lines()) of \(written)")
        var figures = Figures()
        figures.records = lines()
        figures.drainMilliseconds = Int(Date().timeIntervalSince(ended) * 1000)
        guard let browser else { return (figures, []) }
        _ = RunTools.waitUntil(10) { ((try? browser.run("return Object.keys(window.__probes).length")) as? Int) == written / Self.probeEvery }
        let seen = (try browser.run("return window.__probes")) as? [String: Any] ?? [:]
        let skipped = (try browser.run("return window.__markers")) as? [String] ?? []
        let times = TextLines.ofFile(dir.file("times.txt"))
        var latencies: [Int] = []
        for line in times {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let at = Int(parts[1]) else { continue }
            guard let shown = (seen[String(parts[0])] as? NSNumber)?.intValue else { print("  probe \(parts[0]) not seen"); continue }
            latencies.append(shown - at)
        }
        if !skipped.isEmpty { print("  marker rows in the page: \(skipped)") }
        // Every probe is a row, unless the page said it fell behind (a marker row counts what it left out).
        #expect(latencies.count == written / Self.probeEvery || !skipped.isEmpty, "\(latencies.count) probes of \(written / Self.probeEvery) seen")
        return (figures, latencies.sorted())
    }

    @Test(.enabled(if: enabled, "set SPYTAIL_MEASURE_DASHBOARD=1 to measure"))
    func dashboardAt10kLinesPerSecond() throws {
        let (plain, _) = try measure(withDashboard: false)
        let (open, latencies) = try measure(withDashboard: true)
        func percentile(_ p: Double) -> Int { latencies.isEmpty ? -1 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        print("""
            dashboard measurement: \(Self.rate) lines/s for \(Self.seconds) s, binary \(Harness.binary)
              write(2) → row in the DOM: p50 \(percentile(0.5)) ms, p99 \(percentile(0.99)) ms, max \(latencies.last ?? -1) ms (\(latencies.count) probes)
              export without the dashboard: \(plain.records) records, all written \(plain.drainMilliseconds) ms after the last write
              export with the dashboard:    \(open.records) records, all written \(open.drainMilliseconds) ms after the last write
            """)
    }
}
