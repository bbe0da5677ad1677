import Foundation
import SpytailTestSupport

/// A `spytail run` (or another long-running subcommand: `explore`) process and the tools its tests use: a sequence-numbered writer, logrotate, and
/// waiting on a condition with a deadline.
final class RunningSpytail {
    let process = Process()
    let stderrPath: String
    let directory: TemporaryDirectory

    /// `launcher` runs before the binary and must exec it with the same pid (`setpriv …`, `unshare …`);
    /// `stdout` is where the process writes its standard output (default: /dev/null).
    init(config: String, in directory: TemporaryDirectory, verbose: Bool = true, launcher: [String] = [],
         stdout: FileHandle = .nullDevice, arguments: [String] = [], subcommand: String = "run") throws {
        self.directory = directory
        stderrPath = directory.file("spytail.\(UUID().uuidString.prefix(8)).stderr")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let command = launcher + [Harness.binary, subcommand, "-c", config] + (verbose ? ["--verbose"] : []) + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = stdout
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Sends SIGTERM and waits; returns the exit status and how long the exit took.
    func stop() -> (status: Int32, seconds: Double) {
        let start = Date()
        signal(SIGTERM)
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    func killHard() {
        signal(SIGKILL)
        process.waitUntilExit()
    }

    /// Descriptors the process holds open now.
    var openDescriptors: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
}

enum RunTools {
    /// A pipe that other processes do not inherit: both ends close on exec (the child given an end as its standard
    /// stream gets a copy without the flag). A `Pipe`'s ends do not, and can reach a process another test spawns
    /// meanwhile; a long-lived one (a server) then holds the reading end open and the writer never sees EPIPE.
    static func privatePipe() throws -> (reading: FileHandle, writing: FileHandle) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // the first instant aside (no pipe2 in Swift's Glibc)
        return (FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
    }

    /// Waits until `condition` holds, looking every 20 ms, for at most `seconds`. Returns whether it held.
    @discardableResult
    static func waitUntil(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        Waiting.until(seconds, condition)
    }

    /// Appends `count` lines `… seq=N …` from `first` at `rate` lines/s; reopens the file on SIGHUP
    /// (as an application does in logrotate's postrotate).
    static let writerScript = """
        import signal, sys, time
        path, first, count, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
        reopen = False
        def hup(*_):
            global reopen
            reopen = True
        signal.signal(signal.SIGHUP, hup)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGHUP])  # the test runner's threads block it
        f = open(path, "a", buffering=1)
        start = time.monotonic()
        for i in range(first, first + count):
            if reopen:
                f.close(); f = open(path, "a", buffering=1); reopen = False
            f.write("2026-11-20T10:00:00Z INFO seq=%d payload %s\\n" % (i, "x" * 60))
            delay = start + (i - first + 1) / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        f.close()
        """

    static func startWriter(_ path: String, first: Int, count: Int, rate: Int, in directory: TemporaryDirectory) throws -> Process {
        let script = directory.write("writer.py", writerScript)
        let process = Process()
        // SIGHUP ignored until the script sets its handler: another test's logrotate may HUP a finished writer's
        // pid that the kernel has just given to this one (seen once under load: the writer died of SIGHUP).
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap '' HUP; exec python3 "$0" "$@""#, script, path, "\(first)", "\(count)", "\(rate)"]
        try process.run()
        return process
    }

    /// A logrotate `postrotate` command that tells the writer `pid` to reopen, only while that pid is still a
    /// writer (a finished writer's pid may belong to any process by then).
    static func reopenCommand(_ pid: Int32) -> String {
        "grep -qs writer.py /proc/\(pid)/cmdline && kill -HUP \(pid) 2>/dev/null || true"
    }

    /// Runs the real logrotate once, forced, with its own state file.
    static func logrotate(_ config: String, state: String) throws -> Harness.Result {
        try Harness.run("/usr/sbin/logrotate", ["-f", "-s", state, config])
    }

    /// `logrotate` for a config whose copies are named by the second (`dateext`): waits (at most 3 s) for a second
    /// after `second`, the one the last run returned in, then notes the second this run returned in — no earlier
    /// than the one it named its copy by (read before its start instead, a slow start under load named two copies
    /// alike: "destination … already exists").
    static func logrotateInANewSecond(_ config: String, state: String, after second: inout time_t) throws
        -> (clockMoved: Bool, result: Harness.Result) {
        let clockMoved = waitUntil(3) { time(nil) != second }
        let result = try logrotate(config, state: state)
        second = time(nil)
        return (clockMoved, result)
    }

    /// Sequence numbers in the jsonl output (with how often each appears) and the gap records.
    static func sequences(in output: String) -> (counts: [Int: Int], gaps: [[String: Any]], records: [Int: Set<String>]) {
        var counts: [Int: Int] = [:], gaps: [[String: Any]] = [], records: [Int: Set<String>] = [:]
        for line in TextLines.ofFile(output) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if object["category"] as? String == "gap" { gaps.append(object); continue }
            guard let message = object["message"] as? String, let seq = seq(in: message) else { continue }
            counts[seq, default: 0] += 1
            records[seq, default: []].insert(line)
        }
        return (counts, gaps, records)
    }

    /// The N of the first `seq=N` in `text` (what `seq=(\d+)` matches), found on bytes: the tests look at
    /// tens of thousands of records, and a regular expression per record cost seconds of the suite.
    static func seq(in text: String) -> Int? {
        let bytes = Array(text.utf8), key = Array("seq=".utf8)
        var from = bytes.startIndex
        while let found = bytes[from...].firstRange(of: key) {
            let digits = bytes[found.upperBound...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            if !digits.isEmpty { return Int(String(decoding: digits, as: UTF8.self)) }
            from = found.upperBound
        }
        return nil
    }

    /// Whether the output has reached sequence number `n` (that line, or a later one: a line lost to
    /// copytruncate must not stall a test).
    static func reached(_ output: String, _ n: Int) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: output) else { return false }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 4096 ? size - 4096 : 0)
        let tail = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        guard let last = tail.ranges(of: "seq=").last else { return false }
        return (Int(tail[last.upperBound...].prefix { $0.isNumber }) ?? 0) >= n
    }

    /// Whether every sequence number 1…n is in the output, in any order. `reached` looks at the last line only,
    /// which suits one file read in order; a catch-up over a rotated chain after a restart may write a rotated
    /// copy's lines after the live file's, so the last line is not the newest there.
    static func delivered(_ output: String, through n: Int) -> Bool {
        var seen = Set<Int>()
        for line in TextLines.ofFile(output) {
            if let seq = seq(in: line), (1...n).contains(seq) { seen.insert(seq) }
        }
        return seen.count == n
    }

}

/// Reading the jsonl output of a test run, and appending to a log.
struct RunToolsOutput {
    let path: String

    var records: [[String: Any]] {
        TextLines.ofFile(path).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    var messages: [String] { records.compactMap { $0["message"] as? String } }

    /// Complete lines in the file now (counted on bytes, cheap enough to poll).
    var linesOnDisk: Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    static func append(_ path: String, _ text: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }
}

extension RunTools {
    /// A temporary folder with `folders` made in it.
    static func workspace(_ folders: [String] = ["logs", "state"]) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for folder in folders { try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true) }
        return dir
    }

    /// The config most `run` tests use: source `app` over `include`, checkpoints in state/cp.json, one
    /// jsonl output to the file `output` (nil: stdout), and `extra` JSON members. `sources`: another sources array.
    static func config(include: String = "logs/*.log", output: String? = "out.jsonl", extra: String = "", sources: String? = nil) -> String {
        let out = output.map { #"{"type": "file", "path": "\#($0)", "format": "jsonl"}"# } ?? #"{"type": "stdout", "format": "jsonl"}"#
        let sources = sources ?? #"[{"name": "app", "include": ["\#(include)"]}]"#
        return #"{"sources": \#(sources), "checkpoints": "state/cp.json", "outputs": [\#(out)]\#(extra)}"#
    }
}
