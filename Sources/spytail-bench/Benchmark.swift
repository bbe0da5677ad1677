import ArgumentParser
import Glibc

/// `spytail-bench measure`: throughput of `spytail scan` against read, inflate and Perl baselines, measured in
/// one run on deterministic workloads. Prints figures; fails only when an output count is wrong.
struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure spytail scan against dd, zcat and a Perl baseline on generated workloads (the default).",
        discussion: """
            W1: LINES lines in one plain file. W2: the same lines over app.log, app.log.1, app.log.2.gz … app.log.9.gz.
            Every command runs RUNS times, in rounds (each command once per round, so a slow spell of the machine \
            falls on all alike; `run` alternates with `scan` for their ratio); the table shows medians of wall and \
            CPU time, the largest peak RSS, and the output line count, which must equal the generator's expected \
            count (the benchmark exits 1 otherwise).
            A last run reads W1 ten times in one process to show memory stays flat with 10x the input.
            W3: LINES JSON lines (ts, level, logger, msg, trace and span ids, http{…}, user{…}, ~5 % exc_info) read by \
            scan with a json parser, categories from level, one output keeping level WARNING/ERROR or http.status >= 500, \
            against perl with JSON::XS and jq -c doing the same in the same rounds; the kept lines are compared by seq.
            W4: W1's lines in CRI and in Docker json-file envelopes (5 % cut into parts), read by scan and run with the \
            same rules as the inner parser, against W1 in the same rounds; then run over 1,000 container files (peak RSS).
            Build first: swift build -c release && .build/release/spytail-bench
            """)

    @Option(help: "Physical lines per workload.") var lines = 2_000_000
    @Option(help: "Runs per command (the median is reported).") var runs = 5
    @Option(help: "Where workloads are generated and kept between runs.") var workdir = "/tmp/spytail-bench"
    @Option(help: "Where outputs are written (a tmpfs keeps disk speed out of the figures).") var outdir = "/dev/shm/spytail-bench"
    @Option(help: "The spytail binary to measure.") var spytail: String?
    @Flag(help: "Skip the 10x-input memory run.") var skip10x = false
    @Flag(help: "Skip the spytail run figures (latency at --rate, CPU with --idle-files quiet files).") var skipRun = false
    @Option(help: "Lines per second for the run latency figure.") var rate = 10_000
    @Option(help: "Seconds of writing for the run latency figure.") var latencySeconds = 5
    @Option(help: "Quiet files watched for the idle CPU figure.") var idleFiles = 1000
    @Option(help: "Viewers streaming /api/stream during run's W1 catch-up (0: skip those rows).") var viewers = 16
    @Flag(help: "Skip the ClickHouse rows (run into a private clickhouse-server vs clickhouse-client inserting the same rows).")
    var skipClickhouse = false
    @Flag(help: "Only the ClickHouse rows (W1 generated if missing).") var onlyClickhouse = false
    @Flag(help: "Skip the syslog rows (run into a private rsyslogd over RELP and over TCP).") var skipSyslog = false
    @Flag(help: "Only the syslog rows (W1 generated if missing).") var onlySyslog = false
    @Flag(help: "Skip W3 (JSON lines).") var skipJson = false
    @Flag(help: "Only W3 (JSON lines).") var onlyJson = false
    @Flag(help: "Skip W4 (container logs).") var skipContainers = false
    @Flag(help: "Only W4 (container logs; W1 generated if missing).") var onlyContainers = false
    @Flag(help: "Only spytail explore against lnav on W1 and W2 (generated if missing).") var onlyExplore = false

    func run() throws {
        let here = Self.executableDirectory()
        let spytail = self.spytail ?? "\(here)/spytail"
        guard fileExists(spytail) else { fatal("no spytail binary at \(spytail); run swift build -c release first") }
        let outdir = fileExists("/dev/shm") || self.outdir != "/dev/shm/spytail-bench" ? self.outdir : "\(workdir)/out"
        for dir in [workdir, outdir] { mkdir(dir, 0o755) }
        let perl = "\(workdir)/baseline.pl"
        writeFile(perl, PerlBaseline.script)
        if onlyJson {
            let failures = jsonRows(spytail)
            for failure in failures { printError("spytail-bench: WRONG: \(failure)") }
            if !failures.isEmpty { throw ExitCode(1) }
            return
        }
        let w1 = Workload.prepare(name: "W1", lines: lines, rotatedChain: false, directory: workdir)
        if onlyContainers {
            let failures = containerRows(w1, spytail)
            for failure in failures { printError("spytail-bench: WRONG: \(failure)") }
            if !failures.isEmpty { throw ExitCode(1) }
            return
        }
        if onlyClickhouse || onlySyslog {
            let failures = onlyClickhouse ? clickHouseRows(w1, spytail) : syslogRows(w1, spytail)
            for failure in failures { printError("spytail-bench: WRONG: \(failure)") }
            if !failures.isEmpty { throw ExitCode(1) }
            return
        }
        let w2 = Workload.prepare(name: "W2", lines: lines, rotatedChain: true, directory: workdir)
        let config = "\(workdir)/bench.json", output = "\(outdir)/spytail.jsonl"
        writeFile(config, BenchmarkConfig.json(output: output))
        if onlyExplore {
            let misses = exploreRows([w1, w2], spytail, config: config)
            if !misses.isEmpty { print("spytail-bench: \(misses.count) explore targets missed (see above)") }
            return
        }
        if Runner.gnuTime == nil { print("note: /usr/bin/time (Debian package 'time') is missing: peak RSS includes this process's own") }
        print("spytail-bench: \(lines) lines per workload, \(runs) runs each, outputs in \(outdir), \(Self.machine())\n")
        Report.header()
        var failures: [String] = []
        var ratios: [String: (ours: Figures, read: Figures, perl: Figures)] = [:]
        var runs: [String: (run: Figures, scan: Figures)] = [:]
        var inflaters: (isal: Figures, zlib: Figures)?
        var viewerRows: [Figures] = []
        for workload in [w1, w2] {
            let quoted = workload.files.map { "'\($0)'" }.joined(separator: " ")
            // GNU cat skips reading when its output is /dev/null, so dd stands for "read every byte once".
            let readBound = workload.compressed ? "zcat -f \(quoted)" : "for f in \(quoted); do dd if=\"$f\" bs=256k status=none; done"
            let perlInput = workload.compressed ? readBound : "cat \(quoted)"
            let bench = "\(Self.executableDirectory())/spytail-bench"
            var commands: [Command] = [
                Command(tool: workload.compressed ? "zcat" : "read (dd)", argv: ["sh", "-c", readBound + " > /dev/null"], output: nil),
                Command(tool: "perl", argv: ["sh", "-c", "\(perlInput) | perl '\(perl)' > '\(outdir)/perl.jsonl'"],
                        output: "\(outdir)/perl.jsonl"),
                Command(tool: "spytail", argv: [spytail, "scan", "--quiet", "--config", config] + workload.files, output: output),
            ]
            if workload.compressed {
                commands.insert(contentsOf: [
                    Command(tool: "inflate: zlib", argv: [bench, "inflate", "--library", "zlib"] + workload.files, output: nil),
                    Command(tool: "inflate: ISA-L", argv: [bench, "inflate", "--library", "isal"] + workload.files, output: nil),
                ], at: 1)
            }
            var rows = measureInterleaved(workload, commands)
            let read = rows[0], baseline = rows[rows.count - 2], ours = rows[rows.count - 1]
            if workload.compressed { inflaters = (rows[2], rows[1]) }
            if !skipRun {
                let (live, scanBeside, problem) = measureRun(workload, spytail, scan: commands.last!, viewerRows: &viewerRows)
                rows.append(live)
                rows += viewerRows.filter { $0.workload.name == workload.name }
                failures += problem
                runs[workload.name] = (live, scanBeside)
            }
            for f in rows {
                Report.line(f)
                if let n = f.outputLines, n != workload.expectedRecords {
                    failures.append("\(workload.name) \(f.tool): \(n) output lines, expected \(workload.expectedRecords)")
                }
                if let bad = f.runs.first(where: { $0.status != 0 }) { failures.append("\(workload.name) \(f.tool): exit \(bad.status)") }
            }
            ratios[workload.name] = (ours: ours, read: read, perl: baseline)
        }
        print()
        for (name, (ours, read, baseline)) in ratios.sorted(by: { $0.key < $1.key }) {
            print("\(name): spytail/\(read.tool) wall = \(Report.fixed(ours.wall / read.wall, 2))x, "
                  + "perl/spytail wall = \(Report.fixed(baseline.wall / ours.wall, 1))x, "
                  + "spytail \(Report.grouped(Int(ours.linesPerSecond))) lines/s")
        }
        for (name, (run, scan)) in runs.sorted(by: { $0.key < $1.key }) {
            print("\(name): run catch-up from its first start = \(Report.fixed(scan.wall / run.wall, 2))x scan's lines/s "
                  + "(\(Report.grouped(Int(run.linesPerSecond))) lines/s; scan \(Report.fixed(scan.wall, 3)) s in the same rounds)")
        }
        if viewerRows.count == 2 {
            print("W1: run catch-up with \(viewers) viewers streaming = \(Report.fixed(viewerRows[0].wall / viewerRows[1].wall, 2))x "
                  + "the lines/s with the HTTP face on and no viewer")
        }
        if let (isal, zlib) = inflaters {
            print("W2 inflate: ISA-L (spytail's reader) \(Report.fixed(isal.wall, 3)) s, zlib \(Report.fixed(zlib.wall, 3)) s: "
                  + "ISA-L = \(Report.fixed(zlib.wall / isal.wall, 1))x zlib's speed")
        }
        if !skipClickhouse && !skipRun { failures += clickHouseRows(w1, spytail) }
        if !skipSyslog && !skipRun { failures += syslogRows(w1, spytail) }
        if !skip10x { failures += tenTimes(w1, spytail, config, output) }
        if !skipJson { failures += jsonRows(spytail) }
        if !skipContainers { failures += containerRows(w1, spytail) }
        if !skipRun { failures += runFigures(spytail) }
        unlink(output)
        guard failures.isEmpty else {
            for failure in failures { printError("spytail-bench: WRONG: \(failure)") }
            throw ExitCode(1)
        }
    }

    /// A command to measure, and the output file it appends to (removed before each run).
    struct Command {
        let tool: String
        let argv: [String]
        let output: String?

        func run() -> Measurement {
            if let output { unlink(output) }  // spytail appends to its output file
            return Runner.run(argv)
        }
    }

    /// Every command once per round, `runs` rounds: a slow spell of this shared machine then falls on every
    /// command of a round alike instead of on all the runs of one, so same-run ratios hold.
    func measureInterleaved(_ workload: Workload, _ commands: [Command]) -> [Figures] {
        var measurements = Array(repeating: [Measurement](), count: commands.count)
        for _ in 0..<runs {
            for (index, command) in commands.enumerated() { measurements[index].append(command.run()) }
        }
        return zip(commands, measurements).map { command, runs in
            Figures(workload: workload, tool: command.tool, runs: runs, outputLines: command.output.map(countLines))
        }
    }

    /// `spytail run` from its first start until its output holds what `scan` wrote (same records: checked),
    /// alternating with `scan` itself so that their ratio comes from the same moments; returns both.
    func measureRun(_ workload: Workload, _ spytail: String, scan: Command, viewerRows: inout [Figures]) -> (Figures, Figures, [String]) {
        let scanOutput = scan.output!
        // run names every record by the live path (the history is that file's past) and by its source (`bench`,
        // see `RunCatchUp.config`); scan, given the files without a config source, by the member read alone.
        let reference = "\(outdir(scanOutput))/scan-\(workload.name).jsonl"
        let live = workload.files.last!
        let rewrite = ##"s#"source":\{"path":"[^"]*"#"source":{"name":"bench","path":"\##(live)"#"##
        _ = Runner.run(["sh", "-c", "sed -E '\(rewrite)' '\(scanOutput)' > '\(reference)'"])
        unlink(scanOutput)
        defer { unlink(reference) }
        let output = "\(outdir(scanOutput))/run-\(workload.name).jsonl", checkpoints = "\(workdir)/run-\(workload.name).checkpoints.json"
        let config = "\(workdir)/run-\(workload.name).json"
        writeFile(config, RunCatchUp.config(for: workload, output: output, checkpoints: checkpoints))
        var measurements: [Measurement] = [], scans: [Measurement] = []
        for _ in 0..<runs {
            scans.append(scan.run())
            measurements.append(RunCatchUp.measure(spytail: spytail, config: config, output: output, checkpoints: checkpoints,
                                                   expectedBytes: RunCatchUp.fileSize(reference), stderr: "\(workdir)/run.stderr"))
        }
        unlink(scanOutput)
        let figures = Figures(workload: workload, tool: "spytail run", runs: measurements, outputLines: countLines(output))
        let scanBeside = Figures(workload: workload, tool: "spytail (beside run)", runs: scans, outputLines: nil)
        let same = Runner.run(["cmp", "-s", reference, output]).status == 0 && measurements.allSatisfy { $0.status == 0 }
        unlink(output)
        var problems = same ? [] : ["\(workload.name) spytail run: output differs from scan's (see \(workdir)/run.stderr)"]
        if viewers > 0 && !workload.compressed {
            // The HTTP face on, without viewers and with `viewers` streaming everything, in the same run.
            let token = "bench-viewer-token-0123456789", tokenFile = "\(workdir)/http.token"
            writeFile(tokenFile, token + "\n")
            let http = #"{"listen": "127.0.0.1:0", "tokenFile": "\#(tokenFile)", "maxViewers": \#(viewers)}"#
            writeFile(config, RunCatchUp.config(for: workload, output: output, checkpoints: checkpoints, http: http))
            for (label, count) in [("spytail run, http on", 0), ("spytail run, \(viewers) viewers", viewers)] {
                var runs: [Measurement] = []
                for _ in 0..<self.runs {
                    runs.append(RunCatchUp.measure(spytail: spytail, config: config, output: output, checkpoints: checkpoints,
                                                   expectedBytes: RunCatchUp.fileSize(reference), stderr: "\(workdir)/run.stderr",
                                                   viewers: count > 0 ? (count, token) : nil))
                }
                let row = Figures(workload: workload, tool: label, runs: runs, outputLines: countLines(output))
                viewerRows.append(row)
                if runs.contains(where: { $0.status != 0 }) { problems.append("\(workload.name) \(label): did not finish") }
                unlink(output)
            }
        }
        return (figures, scanBeside, problems)
    }

    func outdir(_ path: String) -> String { String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }

    /// `spytail run`: write-to-record latency at a steady rate, and CPU with many quiet files watched.
    func runFigures(_ spytail: String) -> [String] {
        let latency = RunBenchmark.latency(spytail: spytail, directory: workdir, rate: rate, seconds: latencySeconds)
        print("\nrun, \(Report.grouped(rate)) lines/s for \(latencySeconds) s: latency from write(2) to the record on stdout "
              + "p50 \(Report.fixed(latency.percentile(0.5), 2)) ms, p99 \(Report.fixed(latency.percentile(0.99), 2)) ms, "
              + "max \(Report.fixed(latency.percentile(1), 2)) ms over \(Report.grouped(latency.count)) lines")
        let idle = RunBenchmark.idleCPU(spytail: spytail, directory: workdir, count: idleFiles, seconds: 10)
        print("run, \(idleFiles) quiet files watched: \(Report.fixed(idle.cpu, 3)) CPU seconds in 10 s "
              + "(\(Report.fixed(idle.cpu / 10 * 100, 2)) % of a core)")
        var failures: [String] = []
        if latency.count != rate * latencySeconds { failures.append("run latency: \(latency.count) records of \(rate * latencySeconds) lines") }
        if idle.files != idleFiles { failures.append("run idle: \(idle.files) records of \(idleFiles) files") }
        return failures
    }

    /// W1 through `run` into ClickHouse against `clickhouse-client` inserting the same rows from a file.
    func clickHouseRows(_ w1: Workload, _ spytail: String) -> [String] {
        guard ClickHouseBenchmark.installed else {
            print("\nclickhouse rows skipped: Debian's clickhouse-server and clickhouse-client are not installed")
            return []
        }
        var server = ClickHouseBenchmark(workdir: workdir)
        guard server.start() else { return ["clickhouse-server did not start (see \(server.workdir)/error.log)"] }
        defer { server.stop() }
        // The default (TabSeparated, 50,000 rows a batch), smaller batches (more parts for the server to write
        // and merge), and JSONEachRow (more parsing for the server).
        let variants: [(batch: Int, format: String)] = [(50_000, "TabSeparated"), (10_000, "TabSeparated"), (50_000, "JSONEachRow")]
        let checkpoints = "\(workdir)/clickhouse-checkpoints.json"
        var ours: [[Measurement]] = variants.map { _ in [] }, bound: [Measurement] = [], sameParts: [Measurement] = []
        let rows = "\(workdir)/clickhouse-rows.json"
        for _ in 0..<runs {
            for (i, variant) in variants.enumerated() {
                let config = "\(workdir)/bench-clickhouse-\(variant.batch)-\(variant.format).json"
                writeFile(config, server.config(for: w1, table: "spytail_w1", checkpoints: checkpoints, batchMaxRecords: variant.batch,
                                                insertFormat: variant.format))
                ours[i].append(server.measureRun(spytail: spytail, config: config, checkpoints: checkpoints, table: "spytail_w1",
                                                 expected: w1.expectedRecords))
            }
            if bound.isEmpty { _ = server.query("SELECT * FROM spytail_w1 FORMAT JSONEachRow", into: rows) }
            bound.append(server.measureClient(rows: rows, table: "client_w1"))
            sameParts.append(server.measureClient(rows: rows, table: "client_w1", blockRows: variants[1].batch))
        }
        unlink(rows)
        let boundRow = Figures(workload: w1, tool: "clickhouse-client", runs: bound, outputLines: nil)
        let samePartsRow = Figures(workload: w1, tool: "clickhouse-client, parts of \(variants[1].batch)", runs: sameParts, outputLines: nil)
        let oursRows = zip(variants, ours).map {
            Figures(workload: w1, tool: "run -> clickhouse, \($0.format), batch \($0.batch)", runs: $1, outputLines: nil)
        }
        let version = server.query("SELECT version()") ?? "?"
        print("\nClickHouse \(version), \(Report.grouped(w1.expectedRecords)) rows (W1's records):")
        Report.line(boundRow)
        Report.line(samePartsRow)
        for row in oursRows { Report.line(row) }
        for (variant, row) in zip(variants, oursRows) {
            print("W1 into ClickHouse, \(variant.format), batchMaxRecords \(Report.grouped(variant.batch)): spytail run catch-up "
                  + "\(Report.grouped(Int(Double(w1.expectedRecords) / row.wall))) rows/s, clickhouse-client from a file "
                  + "\(Report.grouped(Int(Double(w1.expectedRecords) / boundRow.wall))) rows/s: spytail = "
                  + "\(Report.fixed(boundRow.wall / row.wall, 2))x the server's bound")
        }
        print("W1 into ClickHouse in parts of \(Report.grouped(variants[1].batch)) rows: clickhouse-client "
              + "\(Report.grouped(Int(Double(w1.expectedRecords) / samePartsRow.wall))) rows/s, spytail = "
              + "\(Report.fixed(samePartsRow.wall / oursRows[1].wall, 2))x that")
        var failures: [String] = []
        if ours.joined().contains(where: { $0.status != 0 }) { failures.append("run -> clickhouse did not deliver every record (see \(server.workdir)/run.stderr)") }
        if (bound + sameParts).contains(where: { $0.status != 0 }) { failures.append("clickhouse-client insert failed") }
        return failures
    }

    /// W1 through `run` into rsyslog over RELP and over TCP.
    func syslogRows(_ w1: Workload, _ spytail: String) -> [String] {
        guard SyslogBenchmark.installed else {
            print("\nsyslog rows skipped: Debian's rsyslog and rsyslog-relp are not installed")
            return []
        }
        var server = SyslogBenchmark(workdir: workdir, outdir: outdir)
        guard server.start() else { return ["rsyslogd did not start (see \(server.workdir)/stderr)"] }
        defer { server.stop(); unlink(server.output) }
        var rows: [Figures] = []
        for transport in ["relp", "tcp"] {
            var runs: [Measurement] = []
            for _ in 0..<self.runs {
                runs.append(server.measureRun(spytail: spytail, workload: w1, transport: transport, expected: w1.expectedRecords))
            }
            rows.append(Figures(workload: w1, tool: "run -> rsyslog \(transport)", runs: runs, outputLines: nil))
        }
        print("\nrsyslog (imrelp, imtcp, omfile), \(Report.grouped(w1.expectedRecords)) messages (W1's records):")
        for row in rows { Report.line(row) }
        print("W1 into rsyslog: RELP \(Report.grouped(Int(Double(w1.expectedRecords) / rows[0].wall))) messages/s, "
              + "TCP \(Report.grouped(Int(Double(w1.expectedRecords) / rows[1].wall))) messages/s: RELP = "
              + "\(Report.fixed(rows[1].wall / rows[0].wall, 2))x TCP's rate")
        return rows.flatMap(\.runs).contains { $0.status != 0 } ? ["run -> rsyslog did not deliver every record (see \(server.workdir))"] : []
    }

    /// W1 ten times in one process: peak RSS must not grow with the input.
    func tenTimes(_ w1: Workload, _ spytail: String, _ config: String, _ output: String) -> [String] {
        unlink(output)
        let m = Runner.run([spytail, "scan", "--quiet", "--config", config] + Array(repeating: w1.files[0], count: 10))
        let lines = countLines(output)
        print("\nW1 x10 in one process: \(Report.fixed(m.wall, 2)) s, peak RSS \(Report.fixed(Double(m.peakRSSKB) / 1024, 1)) MB, "
              + "\(Report.grouped(lines)) output lines")
        return lines == 10 * w1.expectedRecords ? [] : ["W1 x10: \(lines) output lines, expected \(10 * w1.expectedRecords)"]
    }

    /// CPU model and count, for the record.
    static func machine() -> String {
        let cpuinfo = readFile("/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last
            .map { $0.trimmingPrefix(" ") } ?? "unknown CPU"
        return "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) x \(model)"
    }

    static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return "." }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }
}

extension Benchmark {
    /// spytail explore and lnav on each workload, interleaved: lnav, spytail, lnav, spytail (the better of two
    /// runs each is not taken: both runs are printed).
    func exploreRows(_ workloads: [Workload], _ spytail: String, config: String) -> [String] {
        guard access("/usr/bin/lnav", X_OK) == 0 else {
            print("explore: lnav is not installed (Debian package 'lnav'): skipped")
            return []
        }
        var misses: [String] = []
        for workload in workloads {
            print("\n\(workload.name) (\(workload.files.count) files, \(Report.grouped(workload.lines)) lines): spytail explore against lnav")
            let lnav = ExploreBenchmark.lnav(files: workload.files, workdir: workdir)
            let ours = ExploreBenchmark.spytail(spytail, config: config, files: workload.files, workdir: workdir)
            let withoutPoints = ExploreBenchmark.spytail(spytail, config: config, files: workload.files, workdir: workdir,
                                                         options: ["--seek-points-every", "0"], onlyPages: true)
            misses += ExploreBenchmark.report(workload.name, ours: ours, withoutSeekPoints: withoutPoints, lnav: lnav)
        }
        return misses
    }
}
