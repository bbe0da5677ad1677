import Foundation
import Testing
import SpytailLogGen
import SpytailTestSupport

/// `run` catching up a backlog (the history at its first start, then the live file's unread bytes) goes
/// through the block-parallel path `scan` uses: the same records in the same order, each the same but for
/// `source.path`, which in `run` is the live path the lines were written under (README, Records).
@Suite(.ownThread)
struct RunMatchesScanTests {
    @Test func theFirstStartWritesExactlyWhatScanWrites() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let counts = try ChainWriter.writeChain(lines: 45_000, rotations: 2, in: dir.file("logs"))  // app.log.2.gz, app.log.1, app.log
        #expect(counts.files.allSatisfy { $0.bytes > 1 << 20 }, "every member is a backlog for the block path")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "state/cp.json",
             "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
                       "multiline": {"continuation": "^\\s", "idleTimeoutMs": 200},
                       "categories": [{"name": "error", "match": {"field": "level", "prefix": "ERROR"}}, {"name": "info", "default": true}],
                       "tags": [{"name": "db", "match": {"field": "tags", "contains": "[db]"}}]},
             "filters": [{"exclude": {"contains": "heartbeat"}}],
             "outputs": [{"type": "file", "path": "run.jsonl", "format": "jsonl"}]}
            """#)
        let scan = try Harness.spytail(["scan", "-c", config, "--format", "jsonl", "-o", "-"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let expected = scan.stdoutLines.count
        #expect(expected > 30_000)

        let spytail = try RunningSpytail(config: config, in: dir)
        // The last entry waits for its idle timeout (200 ms): then everything is out.
        let done = Waiting.until(60, every: 0.2) { RunToolsOutput(path: dir.file("run.jsonl")).linesOnDisk >= expected }
        #expect(spytail.stop().status == 0)
        #expect(done, "\(spytail.stderr)")
        let live = dir.file("logs/app.log")
        let relative = "logs/app.log"
        let scanned = scan.stdoutLines.map { Self.withPath($0, relative) }
        let run = TextLines.ofFile(dir.file("run.jsonl"))
        #expect(run.count == scanned.count)
        #expect(run.count == RunToolsOutput(path: dir.file("run.jsonl")).linesOnDisk, "every record on disk was compared")
        let firstDifference = run.indices.first { $0 >= scanned.count || Self.withPath(run[$0], relative) != scanned[$0] }
        #expect(firstDifference == nil, "record \(firstDifference ?? -1) differs: \(firstDifference.map { run[$0].prefix(300) } ?? "")")
        #expect(run.allSatisfy { $0.contains(#""path":"\#(live)""#) || $0.contains(#""path":"\#(relative)""#) })
    }

    /// The record with its `source.path` replaced (everything else byte for byte).
    static func withPath(_ record: String, _ path: String) -> String {
        let bytes = Array(record.utf8)
        guard let source = bytes.firstRange(of: Array(#""source":{"#.utf8)),
              let key = bytes[source.upperBound...].firstRange(of: Array(#""path":""#.utf8)),
              let end = bytes[key.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else { return record }
        return String(decoding: bytes[..<key.upperBound] + Array(path.utf8) + bytes[end...], as: UTF8.self)
    }
}
