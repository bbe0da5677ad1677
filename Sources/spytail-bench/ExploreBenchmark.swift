import Glibc

/// `spytail explore` against lnav on the same files, in the same run: time until the history can be browsed
/// (spytail: `/readyz` says ready; lnav: its load, `;SELECT count(*)`), peak RSS, searches (spytail: a page of
/// `/api/entries?q=` with the full count in its header; lnav: `count(*) … LIKE`, less its load), regex
/// searches, and histograms of windows (spytail: `/api/histogram`; lnav: `GROUP BY` minute and level, less
/// its load), and pages at twenty places of the history in a shuffled order (random access: through a gzip
/// file's seek points, measured against the same run without them). lnav reads the files with a format of the benchmark's own lines, installed in a config folder
/// of its own (`-I`).
enum ExploreBenchmark {
    /// Twenty searches, rare to frequent; smart case (all lower case: any case, as lnav's LIKE).
    static let searches = ["onappear", "syncfinished", "romeo", "quebec", "u38", "status=503", "deletetodo", "sync progress", "kilo",
                           "attachments", "sessions", "bravo", "papa mike", "oscar", "failed", "http post", "dur_ms=15", "trace=ff",
                           "user=u7 ", "note=\"kilo"]
    static let regexes = ["status=5\\d\\d", "user=u[0-9]{2} action=(onAppear|deleteTodo)", "dur_ms=\\d{4}\\b", "trace=[0-9a-f]{4}00",
                          "(?i)papa (mike|india)"]

    struct Figures {
        var ready = 0.0
        var readyRSSKB = 0
        var peakRSSKB = 0
        var searches: [Double] = []
        /// spytail: the first page and then the whole count (`/api/count`, going on from the page); lnav: the count.
        var counts: [Double] = []
        var regexes: [Double] = []
        var histograms: [Double] = []
        /// A page of 50 entries at twenty places, in a shuffled order.
        var pages: [Double] = []
        var entries = 0
    }

    /// Where the twenty pages start, in twentieths of the history: shuffled, so that no page reads on from the last.
    static let pagePlaces = [13, 2, 19, 7, 0, 16, 10, 4, 18, 1, 12, 8, 15, 5, 17, 3, 11, 14, 6, 9]

    static let lnavFormat = #"""
        {
          "$schema": "https://lnav.org/schemas/format-v1.schema.json",
          "bench_log": {
            "title": "spytail-bench",
            "description": "The lines spytail-bench generates",
            "regex": { "std": { "pattern": "^(?<timestamp>\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z) (?<level>DEBUG|INFO|WARN|ERROR) (?<body>.*)$" } },
            "level-field": "level",
            "level": { "error": "ERROR", "warning": "WARN", "debug": "DEBUG", "info": "INFO" },
            "timestamp-field": "timestamp",
            "sample": [ { "line": "2026-11-20T10:00:00.125869Z WARN [tca] Store: action received id=59821 user=u6 action=onAppear seq=1" } ]
          }
        }
        """#

    /// spytail explore on `files`: started, waited for until ready, asked the queries, stopped.
    /// `onlyPages`: the shuffled pages only (a second run with other `options`).
    static func spytail(_ spytail: String, config: String, files: [String], workdir: String, options: [String] = [],
                        onlyPages: Bool = false) -> Figures {
        let stderr = "\(workdir)/explore.stderr"
        let start = Runner.now()
        let pid = RunCatchUp.spawn([spytail, "explore", "--quiet", "--config", config, "--http", "127.0.0.1:0"] + options + files, stderr: stderr)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        var figures = Figures()
        while !(readFile(stderr)?.contains("; ready") ?? false) {
            if Runner.now() - start > 600 { fatal("spytail explore was not ready within 600 s: see \(stderr)") }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { fatal("spytail explore exited: see \(stderr)") }
            usleep(1000)
        }
        figures.ready = Runner.now() - start
        figures.readyRSSKB = RunCatchUp.peakRSSKB(pid)
        let text = readFile(stderr) ?? ""
        guard let port = text.split(separator: "\n").first(where: { $0.contains("http: listening on") }).flatMap({ Int($0.split(separator: ":").last ?? "") }),
              let tokenStart = text.range(of: "?token=") else { fatal("no address or token in \(stderr)") }
        let token = String(text[tokenStart.upperBound...].prefix { $0.isHexDigit })
        func get(_ path: String) -> (seconds: Double, headers: String) {
            let timing = "\(workdir)/explore.timing", headers = "\(workdir)/explore.headers"
            _ = Runner.run(["/usr/bin/curl", "-s", "-g", "-o", "/dev/null", "-D", headers, "-w", "%{time_total}", "-H", "Authorization: Bearer \(token)",
                            "http://127.0.0.1:\(port)\(path)"], stdout: timing)
            return (Double(readFile(timing) ?? "") ?? .nan, readFile(headers) ?? "")
        }
        // "spytail: explore: N entries of F files … ready"
        if let line = text.split(separator: "\n").first(where: { $0.contains(" entries of ") }), let said = line.range(of: "explore: ") {
            figures.entries = Int(line[said.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        if figures.entries == 0 { fatal("no entry count in \(stderr)") }
        for place in pagePlaces {
            figures.pages.append(get("/api/entries?limit=50&after=\(figures.entries * place / pagePlaces.count + 37)").seconds)
        }
        if onlyPages { return figures }
        for word in searches {
            let page = get("/api/entries?limit=100&q=\(percentEncoded(word))").seconds
            figures.searches.append(page)
            figures.counts.append(page + get("/api/count?q=\(percentEncoded(word))").seconds)
        }
        for pattern in regexes { figures.regexes.append(get("/api/entries?limit=100&regex=\(percentEncoded(pattern))").seconds) }
        // Windows of 1, 5 and 30 minutes and the whole span, across the history.
        for (k, minutes) in [1, 5, 30, 0, 1, 5, 30, 0, 2, 10].enumerated() {
            let from = "2026-11-20T10:\(twoDigits(k * 3)):00Z"
            let to = minutes == 0 ? "" : "&to=\(isoMinutes(from: k * 3, plus: minutes))"
            figures.histograms.append(get("/api/histogram?buckets=120" + (minutes == 0 ? "" : "&from=\(from)\(to)")).seconds)
        }
        figures.peakRSSKB = RunCatchUp.peakRSSKB(pid)
        return figures
    }

    /// lnav on `files` with the benchmark's format: its load, then each query less the load (medians of the loads).
    static func lnav(files: [String], workdir: String) -> Figures {
        let home = "\(workdir)/lnav-home", formats = "\(home)/formats/bench"
        for dir in [home, "\(home)/formats", formats] { mkdir(dir, 0o755) }
        writeFile("\(formats)/bench_log.json", lnavFormat)
        func lnav(_ sql: String) -> Measurement {
            Runner.run(["/usr/bin/env", "HOME=\(home)", "lnav", "-I", home, "-n", "-c", ";" + sql] + files, stdout: "\(workdir)/lnav.out",
                       stderr: "\(workdir)/lnav.stderr")
        }
        var figures = Figures()
        let loads = (0..<3).map { _ in lnav("SELECT count(*) FROM bench_log") }
        let load = median(loads.map(\.wall))
        figures.ready = load
        figures.readyRSSKB = loads.map(\.peakRSSKB).max() ?? 0
        figures.entries = Int((readFile("\(workdir)/lnav.out") ?? "").filter(\.isNumber)) ?? 0
        var peak = figures.readyRSSKB
        for word in searches {
            let m = lnav("SELECT count(*) FROM bench_log WHERE log_body LIKE '%\(word.replacingQuotes())%'")
            figures.searches.append(max(0, m.wall - load))
            figures.counts.append(max(0, m.wall - load))
            peak = max(peak, m.peakRSSKB)
        }
        for (k, minutes) in [1, 5, 30, 0, 1, 5, 30, 0, 2, 10].enumerated() {
            let from = "2026-11-20 10:\(twoDigits(k * 3)):00"
            let window = minutes == 0 ? "" : " WHERE log_time >= '\(from)' AND log_time < '\(isoMinutes(from: k * 3, plus: minutes, sql: true))'"
            let m = lnav("SELECT strftime('%Y-%m-%d %H:%M', log_time) AS minute, log_level, count(*) FROM bench_log\(window) GROUP BY minute, log_level")
            figures.histograms.append(max(0, m.wall - load))
            peak = max(peak, m.peakRSSKB)
        }
        figures.peakRSSKB = peak
        return figures
    }

    /// Prints both tools' figures for one workload and the ratios the explore issue sets as targets.
    static func report(_ name: String, ours: Figures, withoutSeekPoints: Figures, lnav: Figures) -> [String] {
        func ms(_ seconds: Double) -> String { Report.fixed(seconds * 1000, 0) + " ms" }
        func mb(_ kb: Int) -> String { Report.fixed(Double(kb) / 1024, 1) + " MB" }
        let p95 = { (values: [Double]) in percentile(values, 0.95) }
        print("\(name) explore: spytail ready in \(Report.fixed(ours.ready, 2)) s (\(mb(ours.readyRSSKB))), lnav load \(Report.fixed(lnav.ready, 2)) s (\(mb(lnav.readyRSSKB)))")
        print("\(name) explore: search (20 texts) first page p50/p95 spytail \(ms(median(ours.searches)))/\(ms(p95(ours.searches))); "
              + "full count p50/p95 spytail \(ms(median(ours.counts)))/\(ms(p95(ours.counts))), lnav beyond its load "
              + "\(ms(median(lnav.counts)))/\(ms(p95(lnav.counts))): lnav/spytail p95 = \(Report.fixed(p95(lnav.counts) / p95(ours.counts), 2))x")
        print("\(name) explore: regex (5) p50/max spytail \(ms(median(ours.regexes)))/\(ms(ours.regexes.max() ?? .nan)); "
              + "histogram (10 windows) p95 spytail \(ms(p95(ours.histograms))), lnav GROUP BY beyond its load \(ms(p95(lnav.histograms)))")
        print("\(name) explore: a page of 50 at 20 shuffled places p50/p95 spytail \(ms(median(ours.pages)))/\(ms(p95(ours.pages))), "
              + "without gzip seek points \(ms(median(withoutSeekPoints.pages)))/\(ms(p95(withoutSeekPoints.pages))) (--seek-points-every 0)")
        print("\(name) explore: peak RSS spytail \(mb(ours.peakRSSKB)), lnav \(mb(lnav.peakRSSKB))")
        var misses: [String] = []
        if ours.ready > lnav.ready { misses.append("\(name): ready \(Report.fixed(ours.ready, 2)) s, slower than lnav's load \(Report.fixed(lnav.ready, 2)) s") }
        if ours.peakRSSKB > 100 * 1024 { misses.append("\(name): peak RSS \(mb(ours.peakRSSKB)) > 100 MB") }
        if p95(ours.searches) > 0.3 { misses.append("\(name): first page of a search p95 \(ms(p95(ours.searches))) > 300 ms") }
        if p95(ours.histograms) > 0.2 { misses.append("\(name): histogram p95 \(ms(p95(ours.histograms))) > 200 ms") }
        if p95(lnav.counts) < 2 * p95(ours.counts) { misses.append("\(name): full count of a search not 2x lnav's (p95)") }
        for miss in misses { print("\(name) explore: TARGET MISSED: \(miss)") }
        return misses
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func isoMinutes(from minute: Int, plus minutes: Int, sql: Bool = false) -> String {
        let total = minute + minutes
        let time = "\(twoDigits(10 + total / 60)):\(twoDigits(total % 60)):00"
        return sql ? "2026-11-20 \(time)" : "2026-11-20T\(time)Z"
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    func replacingQuotes() -> String { split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") }
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
