import Foundation
import Testing
import SpytailTestSupport

/// spytail writes nowhere but its configured outputs and checkpoint file, creates them 0640 minus the
/// umask. Checked on the system calls themselves (strace), through a start, lines, a rename rotation, a
/// damaged checkpoint set aside, an output file removed by another tool, a reload and a stop.
@Suite(.ownThread, .serialized)
struct WritesOnlyWhereConfiguredTests {
    static let canTrace: Bool = (try? Harness.run("/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "/bin/true"]))?.status == 0

    /// System calls that create, change or remove a name, or open a file for writing.
    static let mutating = "open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,link,linkat,"
        + "symlink,symlinkat,truncate,chmod,fchmodat,chown,fchownat,lchown,mknod,mknodat,utimensat"

    static func launcher(trace: String, umask: String) -> [String] {
        ["/bin/sh", "-c", "umask \(umask) && exec \"$0\" \"$@\"", "/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=\(mutating)"]
    }

    /// Every path a traced call wrote to (a read-only open is not a write; a failed call changed nothing).
    static func writtenPaths(_ trace: String) -> (paths: Set<String>, modes: Set<String>) {
        var paths = Set<String>(), modes = Set<String>()
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        // A ThreadSanitizer build's runtime maps a /tmp/tsan.rodata.* file of its own: not spytail's doing.
        for line in text.split(separator: "\n") where !line.contains("= -1 ") && !line.contains("resumed>") && !line.contains("/tsan.rodata.") {
            guard let call = line.firstMatch(of: /^\d+\s+(\w+)\(/)?.1 else { continue }
            if call.hasPrefix("open") || call == "creat" {
                guard line.contains("O_WRONLY") || line.contains("O_RDWR") || line.contains("O_CREAT") || call == "creat" else { continue }
                if let mode = line.range(of: #", 0\d{3}\)"#, options: .regularExpression) { modes.insert(String(line[mode].dropFirst(2).dropLast())) }
            }
            for quoted in line.matches(of: /"([^"]*)"/) { paths.insert(String(quoted.1)) }
        }
        return (paths, modes)
    }

    /// The pid of `parent`'s first child (the traced spytail under strace).
    static func child(of parent: Int32) -> Int32? {
        let text = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }

    @Test(.enabled(if: canTrace, "needs strace, and ptrace allowed"), arguments: [("022", "-rw-r-----"), ("077", "-rw-------")])
    func runWritesOnlyItsOutputAndCheckpoints(umask: String, expectedMode: String) throws {
        let dir = try RunTools.workspace(["logs", "state", "out"])
        defer { dir.remove() }
        let config = dir.write("c.json", RunTools.config(output: "out/out.jsonl"))
        dir.write("state/cp.json", "damaged")
        let log = dir.write("logs/app.log", "2026-11-20T10:00:00Z INFO seq=1\n")
        let trace = dir.file("trace")
        let spytail = try RunningSpytail(config: config, in: dir, launcher: Self.launcher(trace: trace, umask: umask))
        let output = RunToolsOutput(path: dir.file("out/out.jsonl"))
        #expect(RunTools.waitUntil { output.messages.count == 1 }, "\(spytail.stderr)")
        try FileManager.default.moveItem(atPath: log, toPath: dir.file("logs/app.log.1"))
        dir.write("logs/app.log", "2026-11-20T10:00:00Z INFO seq=2\n")
        #expect(RunTools.waitUntil { output.messages.count == 2 }, "\(spytail.stderr)")
        try FileManager.default.removeItem(atPath: dir.file("out/out.jsonl"))
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:00:00Z INFO seq=3\n")
        #expect(RunTools.waitUntil { output.messages.count == 1 }, "\(spytail.stderr)")
        let pid = try #require(Self.child(of: spytail.pid))
        kill(pid, SIGHUP)
        kill(pid, SIGTERM)
        spytail.process.waitUntilExit()
        #expect(spytail.process.terminationStatus == 0, "\(spytail.stderr)")

        let allowed = Set(["out/out.jsonl", "state/cp.json", "state/cp.json.tmp", "state/cp.json.corrupt", "state/cp.json.recent",
                             "state/cp.json.recent.tmp"].map(dir.file))
        let (paths, modes) = Self.writtenPaths(trace)
        #expect(paths.subtracting(allowed).sorted() == [])
        #expect(paths.contains(dir.file("state/cp.json.corrupt")) && paths.contains(dir.file("out/out.jsonl")))
        #expect(modes == ["0640"])
        for created in ["out/out.jsonl", "state/cp.json"] {
            let permissions = try #require(try FileManager.default.attributesOfItem(atPath: dir.file(created))[.posixPermissions] as? NSNumber)
            #expect(Self.modeString(permissions.intValue) == expectedMode, "\(created)")
        }
    }

    @Test(.enabled(if: canTrace, "needs strace, and ptrace allowed"))
    func scanWritesOnlyItsOutputs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}],
             "outputs": [{"type": "file", "path": "all.jsonl", "format": "jsonl"}, {"type": "file", "path": "all.txt", "format": "text"}]}
            """#)
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/app.log", "2026-11-20T10:00:00Z INFO one\n2026-11-20T10:00:01Z ERROR two\n")
        let trace = dir.file("trace")
        let launch = Self.launcher(trace: trace, umask: "022")
        let result = try Harness.run(launch[0], Array(launch.dropFirst()) + [Harness.binary, "scan", "-q", "-c", config], cwd: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        let (paths, modes) = Self.writtenPaths(trace)
        #expect(paths.sorted() == [dir.file("all.jsonl"), dir.file("all.txt")])
        #expect(modes == ["0640"])
    }

    static func modeString(_ mode: Int) -> String {
        let letters: [Character] = ["r", "w", "x"]
        var text = "-"
        for bit in 0..<9 { text.append((mode >> (8 - bit)) & 1 == 1 ? letters[bit % 3] : "-") }
        return text
    }
}
