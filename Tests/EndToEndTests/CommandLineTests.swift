import Foundation
import Testing
import SpytailTestSupport

/// Exit codes, messages and options of the real binary.
@Suite(.ownThread)
struct CommandLineTests {
    static let badRegex = #"{"parse": {"tags": [{"name": "a", "match": {"contains": "x"}}, {"name": "b", "match": {"contains": "y"}}, {"name": "c", "match": {"regex": "(unclosed"}}]}}"#

    @Test func checkAcceptsTheShippedConfig() throws {
        let result = try Harness.spytail(["check", "-c", Harness.packageRoot.appendingPathComponent("config/default.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains(": ok: 1 source(s), 4 categories, 4 tags"))
    }

    @Test(arguments: ["check", "scan", "run"])
    func aBadConfigExitsTwoNamingTheJSONPath(_ command: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.write("bad.json", Self.badRegex)
        let result = try Harness.spytail(command == "scan" ? [command, "-c", config, config] : [command, "-c", config])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(config): parse.tags[2].match.regex: invalid regex: missing closing parenthesis"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["check", "scan", "run"])
    func missingOutputAndCheckpointFoldersAreConfigErrors(_ command: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["*.log"]}], "checkpoints": "gone/cp.json",
             "outputs": [{"type": "stdout"}, {"type": "file", "path": "nope/x.jsonl"}]}
            """#)
        let result = try Harness.spytail([command, "-c", config])
        #expect(result.status == 2)
        #expect(result.stderr.contains("outputs[1].path: folder '\(dir.path)/nope' does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("checkpoints: folder '\(dir.path)/gone' does not exist"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func checkPrintsTheClickHouseTablesDDLAndNamesAMissingPasswordOrCAFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let output = #"{"type": "clickhouse", "url": "https://127.0.0.1:8443", "database": "logs", "table": "app_lines", "passwordFile": "ch.secret", "caFile": "ca.pem"}"#
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["*.log"]}], "outputs": [\#(output)]}"#)
        let missing = try Harness.spytail(["check", "-c", config])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("outputs[0].passwordFile: file '\(dir.path)/ch.secret' does not exist"), "\(missing.stderr)")
        #expect(missing.stderr.contains("outputs[0].caFile: file '\(dir.path)/ca.pem' does not exist"), "\(missing.stderr)")
        dir.write("ch.secret", "pw\n")
        dir.write("ca.pem", "-----BEGIN CERTIFICATE-----\n")
        let ddl = try Harness.spytail(["check", "-c", config, "--print-ddl"])
        #expect(ddl.status == 0, "\(ddl.stderr)")
        #expect(ddl.stdoutText.hasPrefix("CREATE TABLE IF NOT EXISTS `logs`.`app_lines`"), "\(ddl.stdoutText)")
        #expect(ddl.stdoutText.contains("ENGINE = ReplacingMergeTree()\nORDER BY id;"))
        // No clickhouse output: nothing to print is an error, not an empty success.
        let none = try Harness.spytail(["check", "-c", Harness.packageRoot.appendingPathComponent("config/default.json").path, "--print-ddl"])
        #expect(none.status == 2 && none.stderr.contains("no clickhouse output"), "\(none.stderr)")
    }

    /// A network output that cannot be opened as configured stops `run` at once with what is wrong; `scan`
    /// says network outputs are `run`'s.
    @Test func anUnusableNetworkOutputIsNamedWithWhatIsWrong() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("app.log", "2026-11-20T10:00:00Z INFO one\n")
        dir.write("ca.pem", "not a certificate\n")
        let output = #"{"type": "clickhouse", "url": "https://127.0.0.1:8443", "caFile": "ca.pem"}"#
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["app.log"]}], "checkpoints": "cp.json", "outputs": [\#(output)]}"#)
        let run = try Harness.run("/usr/bin/timeout", ["20", Harness.binary, "run", "-c", config])
        #expect(run.status != 0 && run.status != 124, "run must stop at once: \(run.status)")
        #expect(run.stderr.contains("clickhouse https://127.0.0.1:8443 default.spytail_logs: cannot be opened: caFile '\(dir.path)/ca.pem' holds no PEM certificate"),
                "\(run.stderr)")
        let scan = try Harness.spytail(["scan", "-c", config])
        #expect(scan.status != 0 && scan.stderr.contains("cannot be opened: network outputs are shipped by `spytail run` only"), "\(scan.stderr)")
    }

    @Test(arguments: [["scan", "--bogus"], ["scan"], ["scan", "-c", "x.json", "--since", "yesterday"], ["frobnicate"]])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try Harness.spytail(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func helpExplainsTheCommands() throws {
        let result = try Harness.spytail(["--help"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("scan") && result.stdoutText.contains("check") && result.stdoutText.contains("Exit codes"))
        let scan = try Harness.spytail(["help", "scan"])
        #expect(scan.stdoutText.contains("--since") && scan.stdoutText.contains("rotated chain"))
    }

    @Test func theShippedDefaultConfigRunsOnTheShippedSamples() throws {
        let result = try Harness.spytail(["scan", "-c", "config/default.json"], cwd: Harness.packageRoot.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count > 100)
        #expect(result.stderr.contains("read 400 lines"))
        #expect(result.stderr.contains("errors: 0"))
    }

    @Test func aDamagedGzipInTheChainIsReportedWithItsOffsetAndExitsOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member((0..<5000).map { "old line \($0)\n" }.joined())
        dir.write("app.log.2.gz", Array(whole[..<(whole.count / 2)]))
        dir.write("app.log.1", "newer\n")
        dir.write("app.log", "newest\n")
        let config = dir.write("c.json", #"{"outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let result = try Harness.spytail(["scan", "-c", config, dir.file("app.log"), dir.file("app.log.1"), dir.file("app.log.2.gz")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(dir.file("app.log.2.gz")): gzip data ends early (truncated file?) at compressed offset \(whole.count / 2)"))
        let messages = try Harness.records(result).map { $0["message"] as? String }
        #expect(messages.first == "old line 0")
        #expect(messages.suffix(2) == ["newer", "newest"])
        #expect(result.stderr.contains("errors: 1"))
    }

    /// A chain whose middle gzip has a corrupt second member, with an empty file and a folder named like
    /// logs among the inputs: each problem named once, everything readable in order, exit 1.
    @Test func aCorruptMemberInTheMiddleOfAChainAndOtherBadInputs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        func lines(_ tag: String, _ count: Int) -> String { (0..<count).map { "\(tag) line \($0) \(($0 &* 2_654_435_761) % 1_000_003)\n" }.joined() }
        dir.write("app.log.3.gz", Gzip.member(lines("oldest", 100)))
        var broken = Gzip.member(lines("member-b", 3000))
        broken[2] = 9  // compression method 9: no such thing
        let a = Gzip.member(lines("member-a", 100))
        dir.write("app.log.2.gz", a + broken + Gzip.member(lines("member-c", 100)))
        dir.write("app.log.1", lines("newer", 10))
        dir.write("app.log", lines("newest", 10))
        dir.write("empty.log", [])
        try FileManager.default.createDirectory(atPath: dir.file("folder.log"), withIntermediateDirectories: false)
        let config = dir.write("c.json", #"{"outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let result = try Harness.spytail(["scan", "-q", "-c", config, dir.file("empty.log"), dir.file("folder.log"),
                                          dir.file("app.log"), dir.file("app.log.1"), dir.file("app.log.2.gz"), dir.file("app.log.3.gz")])
        #expect(result.status == 1)
        let problems = result.stderr.split(separator: "\n")
        #expect(problems.count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(dir.file("folder.log")): not a regular file (a directory)"))
        let corrupt = try #require(problems.first { $0.contains("app.log.2.gz: corrupt gzip data at compressed offset ") })
        let offset = Int(corrupt.split(separator: "compressed offset ")[1].prefix { $0.isNumber }) ?? -1
        #expect(offset >= a.count && offset <= a.count + 10)  // in member B's header
        let messages = try Harness.records(result).compactMap { $0["message"] as? String }
        let tags = messages.map { String($0.prefix { $0 != " " }) }
        // Oldest first; member A whole, then a gap record for the rest of that file; the newer files whole.
        #expect(tags == Array(repeating: "oldest", count: 100) + Array(repeating: "member-a", count: 100) + ["gap:"]
                + Array(repeating: "newer", count: 10) + Array(repeating: "newest", count: 10))
        #expect(messages[100 + 99].hasPrefix("member-a line 99 "))
    }

    @Test func timeWindowAndAdHocOutput() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.write("a.log", (0..<10).map { "2026-11-20T10:00:0\($0)Z INFO m\($0)\n" }.joined())
        let config = dir.write("c.json", #"{"parse": {"pattern": "^(?<timestamp>\\S+) (?<level>\\S+) (?<message>.*)$"}}"#)
        let result = try Harness.spytail(["scan", "-c", config, "--since", "2026-11-20T10:00:03Z", "--until", "2026-11-20T10:00:06Z",
                                          "--format", "logfmt", "--output", "out.log", log], cwd: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        let written = String(decoding: dir.read("out.log"), as: UTF8.self).split(separator: "\n")
        #expect(written.map { $0.split(separator: " ").first { $0.hasPrefix("msg=") } } == ["msg=m3", "msg=m4", "msg=m5"])
        #expect(result.stderr.contains("outside --since/--until: 7 entries"))
    }

    /// `scan --merge`: two sources' files, one of them a gzipped rotated chain, as one stream in time order;
    /// `--threads` with it is refused with why.
    @Test func mergeGivesOneStreamInTimeOrderAcrossSourcesAndChains() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for folder in ["api", "db"] { try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true) }
        _ = dir.write("api/app.log.1.gz", Gzip.member("2026-11-20T10:00:00Z INFO api0\n2026-11-20T10:00:02Z INFO api2\n"))
        _ = dir.write("api/app.log", "2026-11-20T10:00:04Z INFO api4\n")
        _ = dir.write("db/db.log", "2026-11-20T10:00:01Z WARN db1\n2026-11-20T10:00:03Z INFO db3\n2026-11-20T10:00:05Z INFO db5\n")
        let config = dir.write("c.json", #"""
            {"parse": {"pattern": "^(?<timestamp>\\S+) (?<level>\\S+) (?<message>.*)$"},
             "sources": [{"name": "api", "include": ["api/app.log"], "rotated": true}, {"name": "db", "include": ["db/*.log"]}],
             "outputs": [{"type": "stdout", "format": "jsonl"}]}
            """#)
        let result = try Harness.spytail(["scan", "--merge", "-c", config])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Harness.records(result)
        #expect(records.map { $0["message"] as? String } == ["api0", "db1", "api2", "db3", "api4", "db5"])
        #expect(records.map { ($0["source"] as? [String: Any])?["name"] as? String } == ["api", "db", "api", "db", "api", "db"])
        let plain = try Harness.spytail(["scan", "-c", config])
        #expect(try Harness.records(plain).map { $0["message"] as? String } == ["api0", "api2", "api4", "db1", "db3", "db5"])
        let refused = try Harness.spytail(["scan", "--merge", "--threads", "2", "-c", config])
        #expect(refused.status != 0 && refused.stderr.contains("--merge runs on one thread"), "\(refused.stderr)")
    }

    @Test func hostileBytesStillGiveValidJSONAndTheRestOfTheFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var bytes: [UInt8] = Array("ok 1\r\n".utf8) + [0xFF, 0xC0, 0x00, 0x1B] + Array(" bad bytes\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "y"), count: 10 << 20) + [0x0A]
        bytes += Array("after the long line\nno newline at end".utf8)
        let log = dir.write("hostile.log", bytes)
        let config = dir.write("c.json", #"{"parse": {"maxLineBytes": 1048576}, "outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let result = try Harness.spytail(["scan", "-c", config, log])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Harness.records(result)
        #expect(records.map { ($0["message"] as? String)?.count } == [4, 14, 1 << 20, 19, 17])
        #expect(records[1]["message"] as? String == "\u{FFFD}\u{FFFD}\u{0}\u{1B} bad bytes")
        #expect(records[2]["truncated"] as? Bool == true)
        #expect(records.filter { $0["truncated"] != nil }.count == 1)
        #expect(records[3]["message"] as? String == "after the long line")
    }

    @Test func readsStandardInput() throws {
        let result = try Harness.spytail(["scan", "-c", Harness.packageRoot.appendingPathComponent("config/default.json").path,
                                          "--format", "jsonl", "-"], stdin: Data("2026-11-20T10:00:00Z ERROR [db] from stdin\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Harness.records(result)
        #expect(records.first?["category"] as? String == "error")
        #expect(records.first?["tags"] as? [String] == ["db"])
        #expect((records.first?["source"] as? [String: Any])?["path"] as? String == "-")
    }

    @Test func aReaderThatGoesAwayStopsTheScanCleanly() throws {
        let script = "set -o pipefail; \"$0\" scan -c \"$1\" --format jsonl \"$2\" | head -n 1 >/dev/null; echo \"status=${PIPESTATUS[0]}\""
        let result = try Harness.run("/bin/bash", ["-c", script, Harness.binary,
                                                   Harness.packageRoot.appendingPathComponent("config/default.json").path,
                                                   Harness.corpora.appendingPathComponent("HDFS_2k.log").path])
        #expect(result.stdoutText.contains("status=0"), "\(result.stdoutText) \(result.stderr)")
        #expect(result.stderr.contains("stdout was closed by its reader"))
    }
}

/// The JSON Schema editors use agrees with the shipped configs and rejects what `check` rejects.
@Suite(.ownThread)
struct SchemaTests {
    @Test func shippedConfigsAndTheDocumentedExampleAreValid() throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                jsonschema.validate(json.load(open(path)), schema)
            bad = {"parse": {"tags": [{"name": "t", "match": {"contains": "a", "prefix": "b"}}]}, "colour": 1}
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(bad))
            print("rejected", len(errors))
            """
        let root = Harness.packageRoot.appendingPathComponent("config")
        let result = try Harness.run("/usr/bin/env", ["python3", "-c", script, root.appendingPathComponent("spytail.schema.json").path,
                                                      root.appendingPathComponent("default.json").path,
                                                      root.appendingPathComponent("container.json").path,
                                                      root.appendingPathComponent("structured.json").path,
                                                      root.appendingPathComponent("kubernetes.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "rejected 2\n")
    }
}

/// `scan` on files that cannot be read: each named once on stderr, the rest still flows, exit 1.
@Suite(.ownThread)
struct ScanBadInputTests {
    /// Root, setpriv, and a binary that user nobody can run from where the package sits.
    static let canDropPrivileges: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        let probe = try? Harness.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Harness.binary, "--version"])
        return probe?.status == 0
    }()

    @Test(.enabled(if: canDropPrivileges, "needs root, and a binary that user nobody can run"))
    func unreadableLoopingAndBinaryFiles() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        chmod(dir.path, 0o755)  // nobody must reach the folder, not the unreadable file
        let good = dir.write("good.log", "readable line\n")
        let secret = dir.write("secret.log", "no access\n")
        chmod(secret, 0o000)
        var generator = SystemRandomNumberGenerator()
        let binary = dir.write("binary.log", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        symlink("loop.log", dir.file("loop.log"))
        let config = dir.write("c.json", #"{"outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        for file in [good, binary, config] { chmod(file, 0o644) }
        let result = try Harness.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Harness.binary,
                                                          "scan", "-c", config, secret, dir.file("loop.log"), binary, good])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(secret): cannot open: Permission denied"))
        #expect(result.stderr.contains("\(dir.file("loop.log")): cannot open: Too many levels of symbolic links"))
        #expect(result.stderr.contains("errors: 2"))
        let records = try Harness.records(result)  // the binary file's lines too, as valid JSON
        #expect(records.last?["message"] as? String == "readable line")
        #expect(records.count > 1)
    }
}
