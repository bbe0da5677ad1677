import Glibc

/// Figures for `spytail run`: latency from a line's write to its record on spytail's stdout at a steady
/// rate, and CPU while many files are watched and nothing happens.
enum RunBenchmark {
    struct Latency {
        let samples: [Double]  // milliseconds
        var count: Int { samples.count }
        func percentile(_ p: Double) -> Double {
            let sorted = samples.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
    }

    /// Starts `spytail run` with stdout on a pipe; returns its pid and the pipe's read end.
    static func spawnRun(_ spytail: String, config: String, stderr: String) -> (pid_t, Int32) {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments: [String] = [spytail, "run", "--config", config]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, spytail, &actions, nil, &argv, environ) == 0 else { fatal("cannot start \(spytail)") }
        close(fds[1])
        return (pid, fds[0])
    }

    /// SIGTERM, wait, close its stdout.
    static func stop(_ pid: pid_t, _ output: Int32) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(output)
    }

    static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Writes `rate` lines/s for `seconds` into a followed file (one write(2) per line, paced per
    /// millisecond) and measures each line's way to spytail's stdout.
    static func latency(spytail: String, directory: String, rate: Int, seconds: Int) -> Latency {
        let log = "\(directory)/latency.log"
        unlink(log)
        close(open(log, O_WRONLY | O_CREAT, 0o644))
        let config = "\(directory)/latency.json"
        writeFile(config, #"{"sources": [{"name": "l", "include": ["latency.log"]}], "outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let (pid, output) = spawnRun(spytail, config: config, stderr: "\(directory)/latency.stderr")
        defer { stop(pid, output) }
        usleep(300_000)  // let it start watching (the first lines would otherwise measure start-up)
        let total = rate * seconds
        let writer = WriterThread(path: log, rate: rate, total: total)
        var samples: [Double] = []
        samples.reserveCapacity(total)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = monotonicNanos() + UInt64(seconds + 10) * 1_000_000_000
        while samples.count < total && monotonicNanos() < deadline {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            let now = monotonicNanos()
            pending += buffer[..<n]
            while let newline = pending.firstIndex(of: 0x0A) {
                if let sent = sentTime(pending[..<newline]) { samples.append(Double(now - min(now, sent)) / 1e6) }
                pending.removeSubrange(...newline)
            }
        }
        writer.join()
        return Latency(samples: samples)
    }

    /// The `t=<nanoseconds>` a line carries.
    static func sentTime(_ line: ArraySlice<UInt8>) -> UInt64? {
        guard let t = line.firstRange(of: Array(" t=".utf8)) else { return nil }
        var value: UInt64 = 0
        for byte in line[t.upperBound...] {
            guard (48...57).contains(byte) else { break }
            value = value * 10 + UInt64(byte - 48)
        }
        return value
    }

    /// Watches `count` files that then stay quiet; returns spytail's CPU seconds over `seconds` of quiet.
    static func idleCPU(spytail: String, directory: String, count: Int, seconds: Int) -> (cpu: Double, files: Int) {
        let folder = "\(directory)/idle"
        mkdir(folder, 0o755)
        for i in 0..<count { writeFile("\(folder)/f\(i).log", "2026-11-20T10:00:00Z INFO file \(i) ready\n") }
        let config = "\(directory)/idle.json"
        writeFile(config, #"{"sources": [{"name": "i", "include": ["idle/*.log"]}], "tail": {"maxOpenFiles": 2048}, "outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let (pid, output) = spawnRun(spytail, config: config, stderr: "\(directory)/idle.stderr")
        defer { stop(pid, output) }
        var seen = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while seen < count {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 10_000) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            seen += buffer[..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        let before = cpuSeconds(pid)
        usleep(UInt32(seconds) * 1_000_000)  // the measurement window itself: nothing happens in it
        return (cpuSeconds(pid) - before, seen)
    }

    /// utime + stime of `pid`, from /proc.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Appends lines `… seq=N t=<monotonic ns> …` at a steady rate on a thread of its own.
final class WriterThread {
    private var thread = pthread_t()

    init(path: String, rate: Int, total: Int) {
        final class Job { let path: String; let rate: Int; let total: Int
            init(_ p: String, _ r: Int, _ t: Int) { path = p; rate = r; total = t } }
        let job = Unmanaged.passRetained(Job(path, rate, total)).toOpaque()
        pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            let fd = open(job.path, O_WRONLY | O_APPEND)
            let start = RunBenchmark.monotonicNanos()
            let perMillisecond = max(1, job.rate / 1000)
            var seq = 0
            while seq < job.total {
                for _ in 0..<perMillisecond where seq < job.total {
                    seq += 1
                    let line = "2026-11-20T10:00:00Z INFO seq=\(seq) t=\(RunBenchmark.monotonicNanos()) payload of a typical length for a log line\n"
                    _ = line.withCString { write(fd, $0, strlen($0)) }
                }
                let next = start + UInt64(seq / perMillisecond) * 1_000_000
                var wake = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil)  // pacing the load, not waiting on a result
            }
            close(fd)
            return nil
        }, job)
    }

    func join() { pthread_join(thread, nil) }
}
