import Foundation
import Glibc
import Testing
import SpytailTestSupport

/// Rotated files that leave the folder or keep growing (the no-silent-loss issue), with real writers:
/// every line on disk is exported once, or a `gap` record says what truly cannot be read.
@Suite(.ownThread, .serialized)
struct RotatedAwayTests {
    typealias Scheme = LogrotateScheme

    static let schemes = [
        Scheme(name: "olddir + compress", logrotate: "olddir old\n compress", source: #", "olddir": "old""#),
        Scheme(name: "olddir", logrotate: "olddir old", source: #", "olddir": "old""#),
        Scheme(name: "extension .log + dateext", logrotate: "extension .log\n dateext\n dateformat -%Y%m%d-%s", source: ""),
    ]

    /// A writer at 3,000 lines/s reopening on SIGHUP (logrotate's postrotate); two rotations while spytail
    /// runs, SIGTERM within `rotateWaitMs` of the second, a third rotation while it is stopped, a restart.
    @Test(arguments: schemes)
    func renameRotationWithARestartIsExactlyOnce(_ scheme: Scheme) throws {
        let dir = try RunTools.workspace(["logs/old", "state"])
        defer { dir.remove() }
        let log = dir.write("logs/app.log", "")
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"]\#(scheme.source)}], "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}"#)
        let output = dir.file("out.jsonl")
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { first.stderr.contains("following from offset 0") }, "\(first.stderr)")
        let total = 9000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 3000, in: dir)
        // The last rotation can come after the writer finished (a slow machine): nothing is left to reopen then.
        let rotate = dir.write("logrotate.conf", "\(log) {\n rotate 50\n missingok\n create\n \(scheme.logrotate)\n postrotate\n  \(RunTools.reopenCommand(writer.processIdentifier))\n endscript\n}\n")
        var second = time(nil)
        func rotateNow() throws {
            let (clockMoved, result) = try RunTools.logrotateInANewSecond(rotate, state: dir.file("state/logrotate.status"), after: &second)
            #expect(clockMoved)
            #expect(result.status == 0, "logrotate: \(result.stderr)")
        }
        for step in 1...2 {
            #expect(RunTools.waitUntil { RunTools.reached(output, step * 1500) }, "\(first.stderr)")
            try rotateNow()
        }
        #expect(RunTools.waitUntil { RunTools.reached(output, 3500) })
        #expect(first.stop().status == 0)
        #expect(RunTools.waitUntil { Self.lines(onDisk: dir) >= 5000 })
        try rotateNow()
        let restarted = try RunningSpytail(config: config, in: dir)
        writer.waitUntilExit()
        let done = RunTools.waitUntil(30) { RunTools.reached(output, total) }
        #expect(restarted.stop().status == 0)
        #expect(done, "\(restarted.stderr)")
        let (counts, gaps, _) = RunTools.sequences(in: output)
        #expect(counts.count == total, "missing \(total - counts.count); \(first.stderr)\n\(restarted.stderr)")
        #expect(counts.values.allSatisfy { $0 == 1 }, "duplicated: \(counts.filter { $0.value > 1 }.count)")
        #expect(gaps.isEmpty, "\(gaps)")
    }

    /// `mv logs/app.log elsewhere/app.log.1; : > logs/app.log` while the writer keeps its descriptor and
    /// appends for several times `rotateWaitMs`: the moved file is followed where it went.
    @Test func aFileMovedOutOfTheFolderWhileWrittenIsFollowedThere() throws {
        let dir = try RunTools.workspace(["logs", "elsewhere", "state"])
        defer { dir.remove() }
        let log = dir.write("logs/app.log", "")
        let config = dir.write("c.json", RunTools.config(include: "logs/*.log", extra: #", "tail": {"rotateWaitMs": 500}"#))
        let output = dir.file("out.jsonl")
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")
        let total = 3000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 1000, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(output, 300) })
        try FileManager.default.moveItem(atPath: log, toPath: dir.file("elsewhere/app.log.1"))
        dir.write("logs/app.log", "")
        writer.waitUntilExit()  // ~2.7 s more of writing into the moved file: over five times rotateWaitMs
        let done = RunTools.waitUntil { RunTools.reached(output, total) }
        #expect(spytail.stop().status == 0)
        #expect(done, "\(spytail.stderr)")
        let (counts, gaps, _) = RunTools.sequences(in: output)
        #expect(counts.count == total && counts.values.allSatisfy { $0 == 1 }, "\(counts.count) of \(total); \(spytail.stderr)")
        #expect(gaps.isEmpty, "\(gaps)")
    }

    /// logrotate `create` and a writer that never reopens: it keeps writing into `app.log.1`, pauses longer
    /// than `rotateWaitMs`, writes again, and writes more while spytail is stopped. All of it is exported.
    @Test func aWriterThatNeverReopensAndPausesIsReadAgainAlsoAfterARestart() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let log = dir.write("logs/app.log", "")
        let config = dir.write("c.json", RunTools.config(include: "logs/*.log", extra: #", "tail": {"rotateWaitMs": 300}"#))
        let output = dir.file("out.jsonl")
        let rotate = dir.write("logrotate.conf", "\(log) {\n rotate 5\n missingok\n create\n}\n")
        let handle = try #require(FileHandle(forWritingAtPath: log))  // the writer's one descriptor, never reopened
        var next = 1
        func write(_ count: Int) {
            handle.write(Data((next..<(next + count)).map { "2026-11-20T10:00:00Z INFO seq=\($0) payload\n" }.joined().utf8))
            next += count
        }
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { first.stderr.contains("following from offset 0") }, "\(first.stderr)")
        write(1000)
        #expect(RunTools.waitUntil { RunTools.reached(output, 1000) })
        #expect(try RunTools.logrotate(rotate, state: dir.file("state/logrotate.status")).status == 0)
        write(500)  // into app.log.1
        #expect(RunTools.waitUntil { first.stderr.contains("quiet for 300 ms; read again if it grows") }, "\(first.stderr)")
        write(500)  // after the pause: the retired file grows again
        #expect(RunTools.waitUntil { RunTools.reached(output, 2000) }, "\(first.stderr)")
        #expect(RunTools.waitUntil { first.stderr.components(separatedBy: "read again if it grows").count > 2 }, "retired again")
        #expect(first.stop().status == 0)
        write(500)  // while stopped
        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(output, 2500) }, "\(second.stderr)")
        write(100)  // and after the restart, once more
        #expect(RunTools.waitUntil { RunTools.reached(output, 2600) }, "\(second.stderr)")
        #expect(second.stop().status == 0)
        try handle.close()
        let (counts, gaps, _) = RunTools.sequences(in: output)
        #expect(counts.count == 2600 && counts.values.allSatisfy { $0 == 1 }, "\(counts.count) of 2600; \(second.stderr)")
        #expect(gaps.isEmpty, "\(gaps)")
    }

    /// A writer that never reopens flushes a buffer mid-line into `app.log.1`: once before a first start (the
    /// chain's newest copy is read at the start) and once before a pause longer than `rotateWaitMs` (the file is
    /// retired). Each line it finishes later comes out once, whole, not as its two parts.
    @Test func aLineFinishedLaterInARotatedFileComesOutWhole() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let log = dir.write("logs/app.log", "")
        let config = dir.write("c.json", RunTools.config(include: "logs/*.log", extra: #", "tail": {"rotateWaitMs": 300}"#))
        let output = dir.file("out.jsonl")
        let handle = try #require(FileHandle(forWritingAtPath: log))  // the writer's one descriptor, never reopened
        func write(_ text: String) { handle.write(Data(text.utf8)) }
        func line(_ n: Int) -> String { "2026-11-20T10:00:00Z INFO seq=\(n) payload\n" }
        write((1...3).map(line).joined() + "2026-11-20T10:00:00Z INFO seq=4 pay")
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        dir.write("logs/app.log", "")
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(output, 3) }, "\(spytail.stderr)")
        write("load\n" + line(5) + "2026-11-20T10:00:00Z INFO seq=6 pay")
        #expect(RunTools.waitUntil { RunTools.reached(output, 5) }, "\(spytail.stderr)")
        #expect(RunTools.waitUntil { spytail.stderr.contains("quiet for 300 ms; read again if it grows") }, "\(spytail.stderr)")
        write("load\n" + line(7))
        #expect(RunTools.waitUntil { RunTools.reached(output, 7) }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        try handle.close()
        let messages = RunToolsOutput(path: output).messages
        #expect(messages.count == 7 && zip(messages, 1...7).allSatisfy { $0.hasSuffix("seq=\($1) payload") }, "\(messages)\n\(spytail.stderr)")
    }

    /// A file created, written and rotated between two looks (a logger rotating many times a second, with a
    /// gzip namer) arrives as the newest rotated copy with content never seen: it is read whole, once. An
    /// older copy arriving (logrotate compressing `app.log.2`) is not read again.
    @Test func contentRotatedAwayBeforeItCouldBeOpenedIsReadFromItsCopy() throws {
        let dir = try RunTools.workspace(["logs", "staging", "state"])
        defer { dir.remove() }
        func lines(_ range: ClosedRange<Int>) -> String { range.map { "2026-11-20T10:00:00Z INFO seq=\($0)\n" }.joined() }
        let config = dir.write("c.json", RunTools.config(include: "logs/*.log"))
        let output = dir.file("out.jsonl")
        dir.write("logs/app.log.2026-11-23_10-00-00", lines(1...10))  // history, read at the first start
        dir.write("logs/app.log", "")
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(output, 10) }, "\(spytail.stderr)")
        // Made elsewhere and moved in, as a rotator's gzip copy of a file spytail never saw.
        dir.write("staging/app.log.2026-11-23_10-00-01", lines(11...20))
        _ = try Harness.run("/bin/gzip", [dir.file("staging/app.log.2026-11-23_10-00-01")])
        try FileManager.default.moveItem(atPath: dir.file("staging/app.log.2026-11-23_10-00-01.gz"),
                                         toPath: dir.file("logs/app.log.2026-11-23_10-00-01.gz"))
        #expect(RunTools.waitUntil { RunTools.reached(output, 20) }, "\(spytail.stderr)")
        // An older copy compressed now (its content was read at the start): not read again.
        _ = try Harness.run("/bin/gzip", [dir.file("logs/app.log.2026-11-23_10-00-00")])
        try RunToolsOutput.append(dir.file("logs/app.log"), lines(21...21))
        #expect(RunTools.waitUntil { RunTools.reached(output, 21) }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        #expect(ChainCheck.sequence(RunToolsOutput(path: output).messages) == Array(1...21), "\(spytail.stderr)")
    }

    /// Lines on disk under logs/ (plain and gzip), by their sequence numbers.
    static func lines(onDisk dir: TemporaryDirectory) -> Int {
        (try? Harness.run("/bin/sh", ["-c", "cd \"$0\" && find logs -type f -exec gzip -dcf {} + | wc -l", dir.path]))
            .flatMap { Int($0.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    }
}
