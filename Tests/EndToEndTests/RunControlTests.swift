import Foundation
import Testing
import SpytailTestSupport

/// `spytail run`: many files under a descriptor cap, hot reload, SIGUSR1 idle and its gap record,
/// multiline idle flush, and a prompt clean stop.
@Suite(.ownThread, .serialized)
struct RunControlTests {
    func makeDirectory() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for folder in ["logs", "state"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
        }
        return dir
    }

    func config(_ extra: String = "", multiline: Bool = false) -> String {
        """
        {"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "state/cp.json",
         "parse": {\(multiline ? #""multiline": {"continuation": "^\\s", "idleTimeoutMs": 200}"# : "")},
         "tail": {"maxOpenFiles": 32},
         "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]\(extra)}
        """
    }

    func messages(_ dir: TemporaryDirectory) -> [String] {
        TextLines.ofFile(dir.file("out.jsonl")).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["message"] as? String
        }
    }

    func append(_ dir: TemporaryDirectory, _ name: String, _ text: String) throws {
        let handle = FileHandle(forWritingAtPath: dir.file(name)) ?? {
            FileManager.default.createFile(atPath: dir.file(name), contents: nil)
            return FileHandle(forWritingAtPath: dir.file(name))!
        }()
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    /// Appends `f<i> line <n>` to each of `logs/f0.log` … `logs/f<count-1>.log`, and expects it.
    func appendLine(_ n: Int, toFiles count: Int, in dir: TemporaryDirectory, expecting expected: inout Set<String>) throws {
        for i in 0..<count {
            try append(dir, "logs/f\(i).log", "f\(i) line \(n)\n")
            expected.insert("f\(i) line \(n)")
        }
    }

    @Test func hundredsOfFilesAppearGrowAndGoWithDescriptorsBounded() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let spytail = try RunningSpytail(config: dir.write("c.json", config()), in: dir, verbose: false)
        #expect(RunTools.waitUntil { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) })
        var expected = Set<String>()
        var maxDescriptors = 0
        for i in 0..<300 {
            try append(dir, "logs/f\(i).log", "f\(i) line 1\nf\(i) line 2\n")
            expected.formUnion(["f\(i) line 1", "f\(i) line 2"])
            if i >= 10 {  // older files grow again after spytail may have parked them
                try append(dir, "logs/f\(i - 10).log", "f\(i - 10) line 3\n")
                expected.insert("f\(i - 10) line 3")
            }
            if i >= 40, i % 2 == 0 {  // and some go away once written
                let gone = i - 40
                RunTools.waitUntil { Set(messages(dir)).contains("f\(gone) line 3") }
                try FileManager.default.removeItem(atPath: dir.file("logs/f\(gone).log"))
            }
            if i % 20 == 0 { maxDescriptors = max(maxDescriptors, spytail.openDescriptors) }
        }
        #expect(RunTools.waitUntil(30) { Set(messages(dir)).isSuperset(of: expected) }, "\(expected.subtracting(messages(dir)).prefix(10))")
        let got = messages(dir)
        #expect(got.count == expected.count, "\(got.count) records for \(expected.count) lines")
        #expect(Set(got).count == got.count)
        // 32 files at most, plus stdio, the outputs, inotify, checkpoints and the runtime's own.
        print("descriptors: at most \(maxDescriptors) open with maxOpenFiles 32")
        #expect(maxDescriptors <= 32 + 16)
        #expect(spytail.stop().status == 0)
    }

    /// A descriptor limit (RLIMIT_NOFILE) below `tail.maxOpenFiles` plus what `run` opens besides: the file budget
    /// is fitted under it and said so, so every file is read (the quietest parked, reopened when they grow) instead
    /// of the files past the limit failing to open and staying unread (as every file past the 70th did before, and
    /// the checkpoint file could not be written).
    @Test func aDescriptorLimitBelowMaxOpenFilesIsFittedUnderAndEveryFileRead() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        var expected = Set<String>()
        try appendLine(1, toFiles: 120, in: dir, expecting: &expected)
        try appendLine(2, toFiles: 120, in: dir, expecting: &expected)
        let configPath = dir.write("c.json", config().replacingOccurrences(of: #""maxOpenFiles": 32"#, with: #""maxOpenFiles": 1024"#))
        // Soft and hard limit alike: nothing to raise.
        let spytail = try RunningSpytail(config: configPath, in: dir, verbose: false, launcher: ["/usr/bin/prlimit", "--nofile=80:80"])
        #expect(RunTools.waitUntil(30) { Set(messages(dir)).isSuperset(of: expected) }, "\(expected.subtracting(messages(dir)).sorted().prefix(10))")
        try appendLine(3, toFiles: 120, in: dir, expecting: &expected)
        #expect(RunTools.waitUntil(30) { Set(messages(dir)).isSuperset(of: expected) }, "\(expected.subtracting(messages(dir)).sorted().prefix(10))")
        let got = messages(dir)
        #expect(got.count == expected.count, "\(got.count) records for \(expected.count) lines")
        #expect(spytail.stderr.contains("tail.maxOpenFiles is 1024, but the process may open only 80 descriptors"), "\(spytail.stderr)")
        #expect(spytail.stderr.contains("at most 16 files are kept open"), "\(spytail.stderr)")
        #expect(!spytail.stderr.contains("Too many open files"), "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
    }

    /// A soft descriptor limit below the hard one (1,024 is common) is raised to the hard one at start, as daemons
    /// do: then `tail.maxOpenFiles`' default fits and nothing is said.
    @Test func theSoftDescriptorLimitIsRaisedToTheHardOne() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let spytail = try RunningSpytail(config: dir.write("c.json", config()), in: dir, verbose: false,
                                         launcher: ["/usr/bin/prlimit", "--nofile=80:4096"])
        #expect(RunTools.waitUntil { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) })
        let limits = (try? String(contentsOfFile: "/proc/\(spytail.pid)/limits", encoding: .utf8)) ?? ""
        let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(openFiles.map { Array($0.suffix(3)) } == ["4096", "4096", "files"], "\(limits)")
        #expect(!spytail.stderr.contains("tail.maxOpenFiles"), "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
    }

    /// Something else holds the descriptors the file budget left (here: the process's limit lowered under it while
    /// it runs, with `prlimit --pid`), so opens fail with EMFILE, `opendir` too. A folder that cannot be listed then
    /// was taken for empty and its parked files for deleted: their positions were dropped and, once descriptors were
    /// back, they were read again from the start (28 duplicates here). Now they stay parked and are read from their
    /// positions at their next change.
    @Test func filesThatGrowWhileTheProcessIsOutOfDescriptorsAreReadOnceItIsNot() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        var expected = Set<String>()
        try appendLine(1, toFiles: 60, in: dir, expecting: &expected)
        let spytail = try RunningSpytail(config: dir.write("c.json", config()), in: dir, verbose: false)
        #expect(RunTools.waitUntil(30) { Set(messages(dir)).isSuperset(of: expected) })
        let limit = { (soft: Int) in
            let prlimit = Process()
            prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            prlimit.arguments = ["--pid", "\(spytail.pid)", "--nofile=\(soft):"]  // the soft limit; the hard one stays
            try prlimit.run()
            prlimit.waitUntilExit()
            #expect(prlimit.terminationStatus == 0)
        }
        try limit(8)  // below what it holds: every open fails
        try appendLine(2, toFiles: 60, in: dir, expecting: &expected)
        // The checkpoint save says it first: the process is out of descriptors.
        #expect(RunTools.waitUntil(30) { spytail.stderr.contains("Too many open files") }, "\(spytail.stderr)")
        try limit(4096)
        try appendLine(3, toFiles: 60, in: dir, expecting: &expected)
        #expect(RunTools.waitUntil(30) { Set(messages(dir)).isSuperset(of: expected) }, "\(expected.subtracting(messages(dir)).sorted().prefix(10))")
        let got = messages(dir)
        #expect(got.count == expected.count, "\(got.count) records for \(expected.count) lines: \(got.filter { !expected.contains($0) }.prefix(5))")
        #expect(!spytail.stderr.contains("gap"), "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
    }

    @Test func configChangesApplyLiveAndBadOnesAreRefused() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let configPath = dir.write("c.json", config())
        let spytail = try RunningSpytail(config: configPath, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following") || FileManager.default.fileExists(atPath: dir.file("state/cp.json")) })
        try append(dir, "logs/app.log", "before reload\n")
        #expect(RunTools.waitUntil { messages(dir).contains("before reload") })

        dir.write("c.json", config(#", "filters": [{"exclude": {"contains": "drop"}}]"#))
        #expect(RunTools.waitUntil { spytail.stderr.contains("config reloaded") }, "\(spytail.stderr)")
        try append(dir, "logs/app.log", "drop me\nkeep me\n")
        #expect(RunTools.waitUntil { messages(dir).contains("keep me") })
        #expect(!messages(dir).contains("drop me"))

        dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"]}], "parse": {"tags": [{"name": "t", "match": {"regex": "("}}]}}"#)
        // The editor's write may be seen half done first (refused as invalid JSON); then the real problem.
        #expect(RunTools.waitUntil { spytail.stderr.contains("parse.tags[0].match.regex: invalid regex") }, "\(spytail.stderr)")
        #expect(spytail.stderr.contains("config change refused"))
        try append(dir, "logs/app.log", "drop still filtered\nstill running\n")
        #expect(RunTools.waitUntil { messages(dir).contains("still running") })
        #expect(!messages(dir).contains("drop still filtered"))

        let refusals = spytail.stderr.components(separatedBy: "parse.tags[0].match.regex").count
        spytail.signal(SIGHUP)  // the same bad file again: refused again, nothing else changes
        #expect(RunTools.waitUntil { spytail.stderr.components(separatedBy: "parse.tags[0].match.regex").count > refusals })
        #expect(spytail.stop().status == 0)
    }

    /// A reload that reorders and renames sources and changes a source's parser: the files already open take
    /// their new source and parser from the next line. What was assembled under the old rules (a multiline entry
    /// waiting for its end) goes out as it was; a partial last line is read again by the new parser.
    @Test func aReloadThatReordersSourcesAndChangesParsersAppliesFromTheNextLine() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let before = #"""
            {"sources": [{"name": "a", "include": ["logs/a.log"], "parser": "j"}, {"name": "b", "include": ["logs/b.log"], "parser": "t"}],
             "parsers": {"j": {"format": "json"}, "t": {"format": "text", "multiline": {"continuation": "^\\s", "idleTimeoutMs": 60000}}},
             "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}
            """#
        let after = #"""
            {"sources": [{"name": "bee", "include": ["logs/b.log"], "parser": "k"}, {"name": "a", "include": ["logs/a.log"], "parser": "j"}],
             "parsers": {"j": {"format": "json"}, "k": {"format": "logfmt"}},
             "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}
            """#
        let configPath = dir.write("c.json", before)
        try append(dir, "logs/a.log", #"{"msg": "a one"}"# + "\n")
        try append(dir, "logs/b.log", "b one\n  continued\nmsg=\"b half\"")
        let spytail = try RunningSpytail(config: configPath, in: dir)
        func records() -> [[String: Any]] {
            TextLines.ofFile(dir.file("out.jsonl")).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func record(_ message: String) -> [String: Any]? { records().first { $0["message"] as? String == message } }
        func sourceName(_ record: [String: Any]?) -> String? { (record?["source"] as? [String: Any])?["name"] as? String }
        #expect(RunTools.waitUntil { record("a one") != nil }, "\(spytail.stderr)")
        #expect(record("b one") == nil, "the multiline entry waits for its end")

        dir.write("c.json", after)
        #expect(RunTools.waitUntil { spytail.stderr.contains("config reloaded") }, "\(spytail.stderr)")
        // Assembled under the old rules, it goes out at the reload as it was: text, with its continuation, source b.
        #expect(RunTools.waitUntil { record("b one") != nil }, "\(records())")
        #expect(record("b one")?["detail"] as? String == "  continued" && sourceName(record("b one")) == "b", "\(record("b one") ?? [:])")
        try append(dir, "logs/b.log", #" level=warn"# + "\n" + #"msg="b two" status=500"# + "\n")
        try append(dir, "logs/a.log", #"{"msg": "a two", "n": 1}"# + "\n")
        #expect(RunTools.waitUntil { record("b two") != nil && record("a two") != nil }, "\(records())")
        // The partial line was read again, whole, by the new logfmt parser; the new source names apply.
        let half = record("b half")
        #expect(sourceName(half) == "bee" && (half?["fields"] as? [String: Any])?["level"] as? String == "warn", "\(half ?? [:]) \(records())")
        #expect(sourceName(record("b two")) == "bee" && (record("b two")?["fields"] as? [String: Any])?["status"] != nil)
        #expect(sourceName(record("a two")) == "a" && (record("a two")?["fields"] as? [String: Any])?["n"] as? Int == 1)
        #expect(!records().contains { $0["parseError"] != nil }, "\(records())")
        #expect(records().count == 5, "each line once: \(records().compactMap { $0["message"] })")
        #expect(spytail.stop().status == 0)
    }

    @Test func sigusr1SwitchesToIdleAndBackWithOneGapRecord() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let spytail = try RunningSpytail(config: dir.write("c.json", config()), in: dir)
        try append(dir, "logs/app.log", "recorded 1\n")
        #expect(RunTools.waitUntil { messages(dir).contains("recorded 1") })
        spytail.signal(SIGUSR1)
        #expect(RunTools.waitUntil { spytail.stderr.contains("state: idle") })
        let skipped = "while idle 1\nwhile idle 2\nwhile idle 3\n"
        try append(dir, "logs/app.log", skipped)
        // Positions stay current while idle: the checkpoint moves past the skipped lines.
        #expect(RunTools.waitUntil { ((try? String(contentsOfFile: dir.file("state/cp.json"), encoding: .utf8)) ?? "").contains("\"offset\":\(11 + skipped.utf8.count)") })
        spytail.signal(SIGUSR1)
        #expect(RunTools.waitUntil { spytail.stderr.contains("state: recording") })
        try append(dir, "logs/app.log", "recorded 2\n")
        #expect(RunTools.waitUntil { messages(dir).contains("recorded 2") })
        let all = messages(dir)
        #expect(!all.contains { $0.hasPrefix("while idle") })
        let gaps = all.filter { $0.hasPrefix("gap:") }
        #expect(gaps == ["gap: \(skipped.utf8.count) bytes skipped while spytail was idle"])
        #expect(spytail.stop().status == 0)
    }

    @Test func aMultilineEntryIsFlushedAfterTheIdleTimeout() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let spytail = try RunningSpytail(config: dir.write("c.json", config(multiline: true)), in: dir)
        try append(dir, "logs/app.log", "boom\n  at frame 1\n  at frame 2\n")
        // No next head line comes: the entry must still arrive, whole, after about 200 ms.
        #expect(RunTools.waitUntil(5) { messages(dir).contains("boom") })
        let record = try #require(TextLines.ofFile(dir.file("out.jsonl")).first)
        #expect(record.contains(#""detail":"  at frame 1\n  at frame 2""#))
        #expect(spytail.stop().status == 0)
    }

    @Test(arguments: ["{\"version\": 1, \"files\": [{\"path\": 3}]}", "\u{0}\u{1}garbage", "{\"version\": 99, \"files\": []}"])
    func aDamagedCheckpointFileIsSetAsideAndReadingStartsOver(_ damage: String) throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        dir.write("state/cp.json", damage)
        try append(dir, "logs/app.log", "one\ntwo\n")
        let spytail = try RunningSpytail(config: dir.write("c.json", config()), in: dir)
        #expect(RunTools.waitUntil { messages(dir) == ["one", "two"] }, "\(spytail.stderr)")
        #expect(spytail.stderr.contains("damaged checkpoint file"))
        #expect(String(decoding: dir.read("state/cp.json.corrupt"), as: UTF8.self) == damage)
        #expect(spytail.stop().status == 0)
        #expect(String(decoding: dir.read("state/cp.json"), as: UTF8.self).contains("\"offset\":8"))
    }

    @Test func sigtermStopsWithinTwoSecondsAndAHeldLineIsNotLost() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let configPath = dir.write("c.json", config())
        let first = try RunningSpytail(config: configPath, in: dir)
        try append(dir, "logs/app.log", "complete\nhalf a li")
        #expect(RunTools.waitUntil { messages(dir).contains("complete") })
        let (status, seconds) = first.stop()
        #expect(status == 0)
        #expect(seconds < 2, "took \(seconds) s")
        try append(dir, "logs/app.log", "ne\n")
        let second = try RunningSpytail(config: configPath, in: dir)
        #expect(RunTools.waitUntil { messages(dir).contains("half a line") })
        #expect(messages(dir) == ["complete", "half a line"])
        #expect(second.stop().status == 0)
    }
}

/// A full output disk: a real 64 KiB tmpfs (mounting needs root, as in CI).
@Suite(.ownThread, .serialized)
struct RunDiskFullTests {
    static let canMount: Bool = {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        guard (try? mountTmpfs(dir.path, size: "64k")) == true else { return false }
        unmount(dir.path)
        return true
    }()

    /// Mounts a tmpfs of `size` (e.g. "64k") on `path`; whether it worked.
    static func mountTmpfs(_ path: String, size: String) throws -> Bool {
        try Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]).status == 0
    }

    /// Unmounts `path` (lazily: a process may still hold a file there).
    static func unmount(_ path: String) { _ = try? Harness.run("/bin/umount", ["-l", path]) }

    @Test(.enabled(if: canMount, "mounting a small tmpfs needs root"))
    func aFullOutputPausesReadingCheckpointsNothingAheadAndLosesNothing() throws {
        let dir = try RunTools.workspace(["logs", "state", "out"])
        defer { dir.remove() }
        #expect(try Self.mountTmpfs(dir.file("out"), size: "64k"))
        defer { Self.unmount(dir.file("out")) }
        let config = dir.write("c.json", RunTools.config(output: "out/out.jsonl"))
        let spytail = try RunningSpytail(config: config, in: dir, arguments: ["--http", "127.0.0.1:0"])
        // The HTTP face's probes say so too: /readyz 503 with the reason while paused, /healthz stays 200.
        var port = 0
        #expect(RunTools.waitUntil {
            port = spytail.stderr.split(separator: "\n").first { $0.contains("http: listening on") }.flatMap { Int($0.split(separator: ":").last ?? "") } ?? 0
            return port > 0
        }, "\(spytail.stderr)")
        func probe(_ path: String) -> (status: String, body: String) {
            let result = try? Harness.run("/usr/bin/curl", ["-s", "--max-time", "10", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
            let lines = (result?.stdoutText ?? "").split(separator: "\n")
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }
        let total = 1500
        let lines = (1...total).map { "2026-11-20T10:00:00Z INFO seq=\($0) \(String(repeating: "p", count: 80))\n" }
        dir.write("logs/app.log", lines.joined())
        #expect(RunTools.waitUntil { spytail.stderr.contains("no space left on device; reading paused") }, "\(spytail.stderr)")

        // While full: the checkpoints (the durable file and the saves since) cover only lines whose records are out.
        let exported = RunTools.sequences(in: dir.file("out/out.jsonl")).counts.count
        for file in ["state/cp.json", "state/cp.json.recent"] {
            let checkpoint = (try? String(contentsOfFile: dir.file(file), encoding: .utf8)) ?? ""
            let offset = checkpoint.range(of: #""offset":(\d+)"#, options: .regularExpression)
                .flatMap { Int(checkpoint[$0].dropFirst(9)) } ?? 0
            let linesBeforeOffset = lines.joined().utf8.prefix(offset).filter { $0 == 0x0A }.count
            #expect(linesBeforeOffset <= exported, "\(file) at line \(linesBeforeOffset), only \(exported) exported")
        }
        #expect(exported < total)
        let paused = probe("/readyz")
        #expect(paused.status == "503" && paused.body.contains("no space left"), "\(paused)")
        #expect(probe("/healthz").status == "200")

        #expect(try Harness.run("/bin/mount", ["-o", "remount,size=4m", dir.file("out")]).status == 0)
        #expect(RunTools.waitUntil(20) { RunTools.reached(dir.file("out/out.jsonl"), total) }, "\(spytail.stderr)")
        #expect(RunTools.waitUntil { probe("/readyz").status == "200" })
        #expect(spytail.stderr.contains("reading resumes"))
        let stopped = spytail.stop()
        #expect(stopped.status == 0, "\(spytail.stderr)")
        let (counts, _, _) = RunTools.sequences(in: dir.file("out/out.jsonl"))
        #expect(counts.count == total)
        #expect(counts.values.allSatisfy { $0 == 1 })
        // Byte for byte: no record torn at the moment the disk filled.
        let text = try String(contentsOfFile: dir.file("out/out.jsonl"), encoding: .utf8)
        #expect(text.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }
}

extension RunDiskFullTests {
    /// A first start that must catch up a 20 MB rotated member (the history) while the output disk is full:
    /// the catch-up waits (the member's descriptor stays near its start: memory is bounded by a read chunk,
    /// not by the member); a stop meanwhile is prompt and checkpoints nothing past what is out; once space
    /// returns every line comes out (those written before the stop twice, as identical records).
    @Test(.enabled(if: canMount, "mounting a small tmpfs needs root"))
    func catchingUpARotatedMemberWaitsForSpaceInsteadOfBuffering() throws {
        let dir = try RunTools.workspace(["logs", "state", "out"])
        defer { dir.remove() }
        #expect(try Self.mountTmpfs(dir.file("out"), size: "128k"))
        defer { Self.unmount(dir.file("out")) }
        let config = dir.write("c.json", RunTools.config(include: "logs/app.log", output: "out/out.jsonl"))
        func lines(_ range: ClosedRange<Int>) -> String { range.map { "2026-11-20T10:00:00Z INFO seq=\($0) \(String(repeating: "m", count: 60))\n" }.joined() }
        let last = 200_020
        let member = dir.write("logs/app.log.1", lines(1...(last - 10)))
        dir.write("logs/app.log", lines((last - 9)...last))
        let memberSize = try #require(try FileManager.default.attributesOfItem(atPath: member)[.size] as? NSNumber).intValue

        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { second.stderr.contains("no space left on device; reading paused") }, "\(second.stderr)")
        let position = Self.readPosition(of: member, in: second.pid)
        #expect(position != nil && position! < memberSize / 4, "\(position ?? -1) of \(memberSize)")

        // Stopped while waiting: a prompt clean exit, and no checkpoint past what is out.
        let stopped = second.stop()
        #expect(stopped.status == 0 && stopped.seconds < 3, "\(second.stderr)")
        #expect(second.stderr.contains("stopping in the middle of catching up"), "\(second.stderr)")

        // Started again, still full; then space returns while it waits: everything comes out.
        let third = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { third.stderr.contains("no space left on device; reading paused") }, "\(third.stderr)")
        #expect(try Harness.run("/bin/mount", ["-o", "remount,size=256m", dir.file("out")]).status == 0)
        #expect(RunTools.waitUntil(60) { RunTools.reached(dir.file("out/out.jsonl"), last) }, "\(third.stderr)")
        #expect(third.stop().status == 0)
        let (counts, _, records) = RunTools.sequences(in: dir.file("out/out.jsonl"))
        #expect(counts.count == last)
        // Lines written before each stop are exported again after it, as the same records.
        #expect(records.values.allSatisfy { $0.count == 1 })
    }

    /// The file offset of `pid`'s descriptor on `path` (from /proc/PID/fdinfo), nil when it has none.
    static func readPosition(of path: String, in pid: Int32) -> Int? {
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path,
                  let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8),
                  let line = info.split(separator: "\n").first(where: { $0.hasPrefix("pos:") }) else { continue }
            return Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

extension RunDiskFullTests {
    /// The checkpoint folder's disk fills up: exporting goes on, the failure is said once, and saving
    /// resumes (at the right offset) when space returns.
    @Test(.enabled(if: canMount, "mounting a small tmpfs needs root"))
    func aFullCheckpointDiskIsSaidOnceAndSavingResumes() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        #expect(try Self.mountTmpfs(dir.file("state"), size: "64k"))
        defer { Self.unmount(dir.file("state")) }
        let config = dir.write("c.json", RunTools.config())
        let log = dir.write("logs/app.log", "2026-11-20T10:00:00Z INFO seq=1\n")
        let spytail = try RunningSpytail(config: config, in: dir)
        let output = RunToolsOutput(path: dir.file("out.jsonl"))
        #expect(RunTools.waitUntil { output.messages.count == 1 && FileManager.default.fileExists(atPath: dir.file("state/cp.json")) })
        _ = try Harness.run("/bin/dd", ["if=/dev/zero", "of=\(dir.file("state/filler"))", "bs=4096"])  // until the disk is full

        for n in 2...4 {
            try RunToolsOutput.append(log, "2026-11-20T10:00:00Z INFO seq=\(n)\n")
            #expect(RunTools.waitUntil { output.messages.count == n }, "\(spytail.stderr)")
        }
        #expect(RunTools.waitUntil { spytail.stderr.contains("cannot write checkpoints") }, "\(spytail.stderr)")
        try FileManager.default.removeItem(atPath: dir.file("state/filler"))
        try RunToolsOutput.append(log, "2026-11-20T10:00:00Z INFO seq=5\n")
        // A retry can save again (at seq=4's end) before seq=5 is read: wait for both, or the stop below may
        // come first and leave seq=5 for the next start (as it should, but not what this test checks).
        #expect(RunTools.waitUntil { spytail.stderr.contains("checkpoints saved again") && output.messages.count == 5 },
                "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        #expect(spytail.stderr.components(separatedBy: "cannot write checkpoints").count == 2, "\(spytail.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber).intValue
        let checkpoint = try String(contentsOfFile: dir.file("state/cp.json"), encoding: .utf8)
        #expect(checkpoint.contains("\"offset\":\(size)"), "\(checkpoint)")
        #expect(output.messages.count == 5)
    }
}

/// `run` on hostile input: every readable line flows, every problem is named once, and it keeps going.
@Suite(.ownThread)
struct RunBadInputTests {
    @Test func hostileFilesAreReportedAndEverythingReadableFlows() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let config = dir.write("c.json", RunTools.config())
        dir.write("logs/bytes.log", [0xFF, 0xC0] + Array("x\u{0}y\r\nsecond\r\n".utf8))
        dir.write("logs/long.log", [UInt8](repeating: UInt8(ascii: "z"), count: 10 << 20) + Array("\nafter the long line\n".utf8))
        dir.write("logs/empty.log", [])
        var generator = SystemRandomNumberGenerator()
        dir.write("logs/binary.log", (0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0x0A])
        try FileManager.default.createDirectory(atPath: dir.file("logs/dir.log"), withIntermediateDirectories: false)
        symlink("loop.log", dir.file("logs/loop.log"))
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        outside.write("secret.log", "not for spytail\n")
        symlink(outside.file("secret.log"), dir.file("logs/escape.log"))
        let spytail = try RunningSpytail(config: config, in: dir)
        // The output holds a 1 MiB message: it is parsed again only when it grew (a wait looks every 20 ms, and
        // parsing it each time cost seconds of CPU a wait when the whole suite ran beside it).
        var parsed: (size: Int, records: [[String: Any]]) = (-1, [])
        func records() -> [[String: Any]] {
            let size = (try? FileManager.default.attributesOfItem(atPath: dir.file("out.jsonl"))[.size] as? Int) ?? 0
            if size != parsed.size {
                parsed = (size, TextLines.ofFile(dir.file("out.jsonl")).compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                })
            }
            return parsed.records
        }
        func messages() -> [String] { records().compactMap { $0["message"] as? String } }
        #expect(RunTools.waitUntil(20) { messages().contains("after the long line") && messages().contains("second") }, "\(spytail.stderr)")
        #expect(messages().contains("\u{FFFD}\u{FFFD}x\u{0}y"))
        let long = records().first { ($0["source"] as? [String: Any])?["path"] as? String == dir.file("logs/long.log") }
        #expect(long?["truncated"] as? Bool == true)
        #expect((long?["message"] as? String)?.count == 1 << 20)
        for problem in ["logs/loop.log: cannot open: Too many levels of symbolic links", "logs/dir.log: not a regular file (a directory); skipped",
                        "logs/escape.log: a symlink to \(outside.file("secret.log")), outside the source's folder; not read"] {
            #expect(RunTools.waitUntil(10) { spytail.stderr.contains(problem) }, "\(spytail.stderr)")
        }
        #expect(!messages().contains("not for spytail"))

        // A followed file is replaced by a directory: named, and the rest goes on.
        try FileManager.default.removeItem(atPath: dir.file("logs/bytes.log"))
        try FileManager.default.createDirectory(atPath: dir.file("logs/bytes.log"), withIntermediateDirectories: false)
        #expect(RunTools.waitUntil(10) { spytail.stderr.contains("logs/bytes.log: not a regular file (a directory); skipped") }, "\(spytail.stderr)")
        dir.write("logs/next.log", "next file\n")
        #expect(RunTools.waitUntil(10) { messages().contains("next file") }, "\(spytail.stderr)")

        // The source folder goes away and comes back: it is watched again and its files read.
        try FileManager.default.removeItem(atPath: dir.file("logs"))
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: false)
        dir.write("logs/again.log", "back again\n")
        #expect(RunTools.waitUntil(15) { messages().contains("back again") }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        // One message per problem, however many events touched the file.
        for problem in ["logs/loop.log: cannot open", "logs/dir.log: not a regular file", "logs/escape.log: a symlink"] {
            #expect(spytail.stderr.components(separatedBy: problem).count == 2, "\(problem)")
        }
        let ids = records().compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count)  // nothing exported twice
    }
}
