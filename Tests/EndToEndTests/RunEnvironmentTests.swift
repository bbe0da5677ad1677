import Foundation
import Testing
import SpytailTestSupport

/// `run` when the environment works against it: inotify limits reached. The limits are set to 0 inside
/// a user namespace of the test's own (`/proc/sys/user/max_inotify_*`), so the machine's are untouched.
@Suite(.ownThread, .serialized)
struct RunEnvironmentTests {
    static let canLimitInotify: Bool = {
        let probe = try? Harness.run("/usr/bin/unshare", ["--user", "--map-root-user", "/bin/sh", "-c",
                                                          "echo 0 > /proc/sys/user/max_inotify_instances"])
        return probe?.status == 0
    }()

    /// A launcher that sets `/proc/sys/user/<limit>` to 0 in a new user namespace, then execs spytail.
    static func withLimit(_ limit: String) -> [String] {
        ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c", "echo 0 > /proc/sys/user/\(limit) && exec \"$0\" \"$@\""]
    }

    func messages(_ dir: TemporaryDirectory) -> [String] { RunToolsOutput(path: dir.file("out.jsonl")).messages }

    @Test(.enabled(if: canLimitInotify, "needs unprivileged user namespaces (unshare --user)"),
          arguments: [("max_inotify_instances", "fs.inotify.max_user_instances", 1), ("max_inotify_watches", "fs.inotify.max_user_watches", 2)])
    func withoutInotifyFilesAndTheConfigAreLookedAtEveryTwoSeconds(limit: String, sysctl: String, folders: Int) throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let configPath = dir.write("c.json", RunTools.config())
        dir.write("logs/a.log", "first\n")
        let spytail = try RunningSpytail(config: configPath, in: dir, launcher: Self.withLimit(limit))
        #expect(RunTools.waitUntil(10) { messages(dir).contains("first") }, "\(spytail.stderr)")
        #expect(RunTools.waitUntil(10) { spytail.stderr.contains(sysctl) }, "\(spytail.stderr)")

        // Growth and a new file are seen by the 2 s look.
        try RunToolsOutput.append(dir.file("logs/a.log"), "second\n")
        dir.write("logs/b.log", "a new file\n")
        #expect(RunTools.waitUntil(10) { messages(dir).contains("second") && messages(dir).contains("a new file") }, "\(spytail.stderr)")

        // So is a change of the config.
        dir.write("c.json", RunTools.config(extra: #", "filters": [{"exclude": {"contains": "drop"}}]"#))
        #expect(RunTools.waitUntil(10) { spytail.stderr.contains("config reloaded") }, "\(spytail.stderr)")
        try RunToolsOutput.append(dir.file("logs/a.log"), "drop me\nkeep me\n")
        #expect(RunTools.waitUntil(10) { messages(dir).contains("keep me") }, "\(spytail.stderr)")
        #expect(!messages(dir).contains("drop me"))

        // Each problem said once, not at every 2 s retry.
        let warnings = spytail.stderr.split(separator: "\n").filter { $0.contains(sysctl) }.count
        #expect(warnings == folders, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        let ids = RunToolsOutput(path: dir.file("out.jsonl")).records.compactMap { $0["id"] as? String }
        #expect(ids.count == 4 && Set(ids).count == 4)
    }
}

/// `run` writing to a pipe whose reader goes away.
@Suite(.ownThread)
struct RunClosedPipeTests {
    @Test func aClosedStdoutEndsTheRunCleanlyAndTheRestartResumesAfterWhatWasDelivered() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let toStdout = dir.write("stdout.json", RunTools.config(output: nil))
        let lines = (1...20).map { "2026-11-20T10:00:00Z INFO seq=\($0)\n" }
        dir.write("logs/app.log", lines[..<10].joined())
        let pipe = try RunTools.privatePipe()
        let spytail = try RunningSpytail(config: toStdout, in: dir, stdout: pipe.writing)
        try pipe.writing.close()
        var received = Data()
        let deadline = Date().addingTimeInterval(20)
        while received.filter({ $0 == 0x0A }).count < 10 && Date() < deadline {
            received.append(pipe.reading.availableData)
        }
        #expect(received.filter { $0 == 0x0A }.count == 10)
        let delivered = lines[..<10].joined().utf8.count
        func checkpointOffset() -> Int {
            let text = (try? String(contentsOfFile: dir.file("state/cp.json"), encoding: .utf8)) ?? ""
            return text.range(of: #""offset":(\d+)"#, options: .regularExpression).flatMap { Int(text[$0].dropFirst(9)) } ?? -1
        }
        #expect(RunTools.waitUntil { checkpointOffset() == delivered })

        try pipe.reading.close()
        let handle = try #require(FileHandle(forWritingAtPath: dir.file("logs/app.log")))
        handle.seekToEndOfFile()
        handle.write(Data(lines[10...].joined().utf8))
        try handle.close()
        let exited = RunTools.waitUntil { !spytail.process.isRunning }
        #expect(exited, "\(spytail.stderr)")
        if !exited { spytail.killHard() }  // the failure is recorded; the test must not wait for ever
        spytail.process.waitUntilExit()
        #expect(spytail.process.terminationStatus == 0)
        #expect(spytail.process.terminationReason == .exit)
        #expect(spytail.stderr.contains("stdout was closed by its reader; stopped"), "\(spytail.stderr)")
        #expect(checkpointOffset() == delivered)

        // The restart exports exactly what the closed pipe did not take.
        let toFile = dir.write("file.json", RunTools.config())
        let again = try RunningSpytail(config: toFile, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(dir.file("out.jsonl"), 20) }, "\(again.stderr)")
        #expect(again.stop().status == 0)
        let counts = RunTools.sequences(in: dir.file("out.jsonl")).counts
        #expect(counts.keys.sorted() == Array(11...20))
        #expect(counts.values.allSatisfy { $0 == 1 })
    }
}

/// `run` as an unprivileged user (user nobody through setpriv, where the machine allows).
@Suite(.ownThread)
struct RunUnprivilegedTests {
    @Test(.enabled(if: ScanBadInputTests.canDropPrivileges, "needs root, and a binary that user nobody can run"))
    func anUnreadableFileIsNamedOnceAndReadWhenItBecomesReadable() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let config = dir.write("c.json", RunTools.config())
        let good = dir.write("logs/good.log", "readable\n")
        let secret = dir.write("logs/secret.log", "kept from nobody\n")
        chmod(secret, 0o600)  // root's
        for path in [dir.path, dir.file("logs"), dir.file("state"), good, config] { chown(path, 65534, 65534) }
        let spytail = try RunningSpytail(config: config, in: dir,
                                         launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        let output = RunToolsOutput(path: dir.file("out.jsonl"))
        #expect(RunTools.waitUntil { output.messages.contains("readable") }, "\(spytail.stderr)")
        #expect(RunTools.waitUntil { spytail.stderr.contains("logs/secret.log: cannot open: Permission denied") }, "\(spytail.stderr)")

        // It keeps running: the readable file flows, the unreadable one grows without a new message.
        try RunToolsOutput.append(good, "still flowing\n")
        try RunToolsOutput.append(secret, "more secrets\n")
        #expect(RunTools.waitUntil { output.messages.contains("still flowing") }, "\(spytail.stderr)")
        // Made readable: read from its start at the next event.
        chmod(secret, 0o644)
        #expect(RunTools.waitUntil { output.messages.contains("more secrets") }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        #expect(spytail.stderr.components(separatedBy: "secret.log: cannot open").count == 2, "\(spytail.stderr)")
        #expect(output.messages == ["readable", "still flowing", "kept from nobody", "more secrets"])
        // What it created belongs to nobody.
        for created in ["out.jsonl", "state/cp.json"] {
            let owner = try FileManager.default.attributesOfItem(atPath: dir.file(created))[.ownerAccountID] as? NSNumber
            #expect(owner?.intValue == 65534)
        }
    }
}

/// `run` restarting onto a rotated chain whose gzip member was damaged while it was stopped.
@Suite(.ownThread)
struct RunDamagedChainTests {
    @Test func aTruncatedGzipMemberIsReadUpToTheDamageReportedAsAGapAndTheLiveFileFollows() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let config = dir.write("c.json", RunTools.config(include: "logs/app.log"))
        func lines(_ range: ClosedRange<Int>) -> String {
            range.map { "2026-11-20T10:00:00Z INFO seq=\($0) \(String(UInt64($0) &* 0x9E37_79B9_7F4A_7C15, radix: 36))\n" }.joined()
        }
        let log = dir.write("logs/app.log", lines(1...2000))
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(dir.file("out.jsonl"), 2000) }, "\(first.stderr)")
        #expect(first.stop().status == 0)

        // While stopped: 2,000 more lines, a rotation with gzip, the .gz cut at 3/4, a new live file.
        try RunToolsOutput.append(log, lines(2001...4000))
        try FileManager.default.moveItem(atPath: log, toPath: dir.file("logs/app.log.1"))
        #expect(try Harness.run("/bin/gzip", [dir.file("logs/app.log.1")]).status == 0)
        let gz = dir.file("logs/app.log.1.gz")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gz)[.size] as? NSNumber).intValue
        #expect(truncate(gz, off_t(size * 3 / 4)) == 0)  // the cut falls in lines 2001…4000
        dir.write("logs/app.log", lines(5001...5010))

        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(dir.file("out.jsonl"), 5010) }, "\(second.stderr)")
        #expect(second.stop().status == 0)
        #expect(second.stderr.contains("logs/app.log.1.gz: gzip data ends early (truncated file?) at compressed offset"), "\(second.stderr)")
        let (counts, gaps, _) = RunTools.sequences(in: dir.file("out.jsonl"))
        #expect(counts.values.allSatisfy { $0 == 1 })
        // Everything before the damage, in one piece; nothing after it; all of the new file.
        let recovered = counts.keys.filter { (2001...4000).contains($0) }.sorted()
        #expect(recovered.first == 2001 && recovered.count > 100 && recovered.count < 2000, "\(recovered.count)")
        #expect(recovered == Array(2001...(2000 + recovered.count)))
        #expect(counts.keys.filter { $0 <= 2000 }.count == 2000)
        #expect(counts.keys.filter { $0 > 5000 }.count == 10)
        #expect(gaps.count == 1)
        #expect((gaps.first?["fields"] as? [String: String])?["gapReason"] == "damaged")
    }
}
