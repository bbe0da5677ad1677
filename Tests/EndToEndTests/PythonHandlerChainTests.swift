import Foundation
import Testing
import SpytailTestSupport

/// Chains written by Python's own logging handlers (the most common app loggers): `RotatingFileHandler`
/// (numbered) and `TimedRotatingFileHandler` with each `when` and its suffix, with and without a gzip namer.
/// The handlers are real; only their clock is moved forward, so a day's rotations take a second.
@Suite(.ownThread)
struct PythonHandlerChainTests {
    static let lines = 3000

    /// Writes `seq=1…count` through the handler; `kind` is `size`, or a `when` (S, M, H, D), `+gz` for a namer.
    static let writer = """
        import gzip, logging, logging.handlers, os, shutil, sys, time
        path, kind, count, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        when = kind.replace("+gz", "")
        interval = {"S": 1, "M": 60, "H": 3600, "D": 86400}.get(when, 0)
        clock = [time.time()]                 # starts now: the handler dates its first rollover from the file's mtime
        time.time = lambda: clock[0]          # the handler's clock; one rotation every 150 records
        if when == "size":
            handler = logging.handlers.RotatingFileHandler(path, maxBytes=16000, backupCount=100)
        else:
            handler = logging.handlers.TimedRotatingFileHandler(path, when=when, backupCount=0, utc=True)
        if kind.endswith("+gz"):
            handler.namer = lambda name: name + ".gz"
            def rotator(source, dest):
                with open(source, "rb") as f, gzip.open(dest, "wb") as g:
                    shutil.copyfileobj(f, g)
                os.remove(source)
            handler.rotator = rotator
        handler.setFormatter(logging.Formatter("2026-11-20T10:00:00Z INFO %(message)s"))
        log = logging.getLogger("app")
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        start = time.monotonic()
        for i in range(1, count + 1):
            log.info("seq=%d payload %s", i, "x" * 80)
            clock[0] += interval / 150.0
            if rate > 0:
                delay = start + i / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        handler.close()
        """

    static func write(_ kind: String, in dir: TemporaryDirectory, count: Int = lines, rate: Int = 0) throws -> Process {
        let script = dir.write("handler.py", writer)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, dir.file("logs/app.log"), kind, "\(count)", "\(rate)"]
        try process.run()
        return process
    }

    static func config(_ dir: TemporaryDirectory) -> String {
        dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}"#)
    }

    @Test(arguments: ["size", "S", "M", "H", "D", "S+gz", "D+gz"])
    func postMortemAndFirstStart(_ kind: String) throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let writer = try Self.write(kind, in: dir)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let copies = try FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).filter { $0 != "app.log" }
        #expect(copies.count >= 10, "the handler rotated: \(copies.sorted().prefix(3))")
        let check = ChainCheck(dir: dir, config: Self.config(dir), lines: Self.lines)
        try check.all(explicit: check.globbed("logs"))
    }

    /// Followed live while the handler rotates every 0.1 s, stopped with SIGTERM halfway, restarted: every
    /// line once (the checkpointed file is found again under its rotated, gzipped name).
    @Test func liveWithARestartInTheMiddle() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let config = Self.config(dir), output = dir.file("out.jsonl")
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(10) { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) }, "\(first.stderr)")
        let writer = try Self.write("S+gz", in: dir, count: 6000, rate: 1500)
        #expect(RunTools.waitUntil(20) { RunTools.reached(output, 2000) })
        #expect(first.stop().status == 0)
        #expect(RunTools.waitUntil(20) { (try? FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).count) ?? 0 > 20 })
        let second = try RunningSpytail(config: config, in: dir)
        writer.waitUntilExit()
        // Every line, in any order: after the restart the catch-up may write a rotated copy's lines after the live
        // file's. `reached`, which reads the last line only, once waited out its two minutes in the full suite,
        // and after the stop every line was there and none twice. Alone under load it takes 5–8 s.
        let done = RunTools.waitUntil(120) { RunTools.delivered(output, through: 6000) }
        #expect(second.stop().status == 0)
        #expect(done, "\(second.stderr)")
        let (counts, gaps, _) = RunTools.sequences(in: output)
        let missing = (1...6000).filter { counts[$0] == nil }
        #expect(missing.isEmpty, "missing \(missing.count) (\(missing.first ?? 0)…\(missing.last ?? 0)); \(first.stderr.suffix(2500))\n--- second:\n\(second.stderr.prefix(2500))")
        let repeated = counts.filter { $0.value > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "duplicated: \(repeated.count) (\(repeated.first ?? 0)…\(repeated.last ?? 0)); \(first.stderr.suffix(1500))\n--- second:\n\(second.stderr.prefix(3000))")
        #expect(gaps.isEmpty, "\(gaps)")
    }
}
