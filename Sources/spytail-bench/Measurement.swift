import Glibc

/// One run of a command: wall time, CPU time and peak RSS of the process tree, as wait4(2) reports them.
struct Measurement {
    var wall: Double
    var cpu: Double
    var peakRSSKB: Int
    var status: Int32
}

/// Runs commands with posix_spawn, stdin and stdout redirected to files, and measures them.
enum Runner {
    /// GNU time, when installed, reports the peak RSS of the command alone. wait4's figure would not:
    /// posix_spawn uses vfork, and Linux keeps the parent's high-water mark across the child's exec, so
    /// every child would seem at least as large as this benchmark process.
    static let gnuTime = access("/usr/bin/time", X_OK) == 0 ? "/usr/bin/time" : nil

    /// Runs `argv` (argv[0] looked up in PATH); stdout goes to `stdout` (a path), stdin from `stdin`.
    static func run(_ argv: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
                    stderr: String = "/dev/null") -> Measurement {
        guard let gnuTime else { return spawn(argv, stdin: stdin, stdout: stdout, stderr: stderr) }
        let rssFile = "/tmp/spytail-bench-rss.\(getpid())"
        var measured = spawn([gnuTime, "-f", "%M", "-o", rssFile] + argv, stdin: stdin, stdout: stdout, stderr: stderr)
        if let text = readFile(rssFile), let kb = Int(text.split(separator: "\n").last ?? "") { measured.peakRSSKB = kb }
        unlink(rssFile)
        return measured
    }

    private static func spawn(_ argv: [String], stdin: String, stdout: String, stderr: String) -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let start = now()
        var pid = pid_t()
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
        guard rc == 0 else { fatal("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = now() - start
        let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Measurement(wall: wall, cpu: cpu, peakRSSKB: usage.ru_maxrss, status: exit)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func seconds(_ tv: timeval) -> Double { Double(tv.tv_sec) + Double(tv.tv_usec) / 1e6 }
}

func fatal(_ message: String) -> Never {
    printError("spytail-bench: error: \(message)")
    exit(1)
}

func printError(_ message: String) {
    let text = message + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Counts newline bytes in a file.
func countLines(_ path: String) -> Int {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return -1 }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var lines = 0
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return lines }
        lines += buffer[..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

func writeFile(_ path: String, _ text: String) {
    guard let f = fopen(path, "w") else { fatal("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}

func readFile(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var out = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n == 0 { break }
        out += buffer[..<n]
    }
    return String(decoding: out, as: UTF8.self)
}
