import Foundation
import Testing
import SpytailLogGen
import SpytailTestSupport

/// A rotated chain made by the project's log generator (app.log.4.gz … app.log.1, app.log) scanned through a
/// config's sources: checked by the generator's verifier and by counts made here from the decompressed files.
@Suite(.ownThread)
struct RotatedChainTests {
    static let lines = 30_000

    static let config = #"""
    {
      "sources": [{"name": "app", "include": ["chain/*.log"], "rotated": true}],
      "parse": {
        "pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
        "multiline": {"continuation": "^\\s"},
        "categories": [
          {"name": "error", "match": {"field": "level", "regex": "^ERROR$"}},
          {"name": "warning", "match": {"field": "level", "prefix": "WARN"}},
          {"name": "debug", "match": {"field": "level", "prefix": "DEBUG"}},
          {"name": "info", "default": true}],
        "tags": [{"name": "tca", "match": {"field": "tags", "contains": "[tca]"}},
                 {"name": "db", "match": {"field": "tags", "contains": "[db]"}}]
      },
      "filters": [{"exclude": {"category": "debug"}}, {"exclude": {"contains": "heartbeat"}}],
      "outputs": [{"type": "file", "path": "out/all.jsonl", "format": "jsonl"},
                  {"type": "file", "path": "out/errors.jsonl", "format": "jsonl", "where": {"category": "error"}}]
    }
    """#

    @Test func everyRecordOnceOldestFirstWithCategoriesAndTags() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let counts = try ChainWriter.writeChain(lines: Self.lines, rotations: 4, in: dir.file("chain"))
        try FileManager.default.createDirectory(atPath: dir.file("out"), withIntermediateDirectories: false)
        let config = dir.write("spytail.json", Self.config)

        let result = try Harness.spytail(["scan", "-c", config, "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        let order = result.stderr.split(separator: "\n").filter { $0.hasSuffix(": reading (gzip)") || $0.hasSuffix(": reading") }
            .map { $0.split(separator: "/").last.map(String.init) ?? "" }
        #expect(order == ["app.log.4.gz: reading (gzip)", "app.log.3.gz: reading (gzip)", "app.log.2.gz: reading (gzip)",
                          "app.log.1: reading", "app.log: reading"])

        // The generator's verifier: every kept record once, in order, continuation lines joined.
        let report = try OutputVerifier(lines: Self.lines).verify(path: dir.file("out/all.jsonl"))
        #expect(report.matches == .join, "\(report.json)")
        #expect(report.inOrder)

        // Independent counts from the decompressed chain.
        var heads: [String] = []
        for name in ["app.log.4.gz", "app.log.3.gz", "app.log.2.gz", "app.log.1", "app.log"] {
            let text = try Harness.run("/bin/sh", ["-c", "gzip -dcf \"$0\"", dir.file("chain/\(name)")]).stdoutText
            heads += text.split(separator: "\n").filter { !($0.first?.isWhitespace ?? true) }.map(String.init)
        }
        let kept = heads.filter { !$0.contains(" DEBUG ") && !$0.contains("heartbeat") }
        let all = try records(dir.file("out/all.jsonl"))
        #expect(all.count == kept.count)
        #expect(all.count == counts.keptJoin)
        #expect(all.filter { $0["category"] as? String == "error" }.count == kept.filter { $0.contains(" ERROR ") }.count)
        #expect(all.filter { $0["category"] as? String == "warning" }.count == kept.filter { $0.contains(" WARN ") }.count)
        #expect(all.filter { ($0["tags"] as? [String])?.contains("tca") == true }.count == kept.filter { $0.contains("[tca]") }.count)
        #expect(all.filter { ($0["tags"] as? [String])?.contains("db") == true }.count == kept.filter { $0.contains("[db]") }.count)
        let errors = try records(dir.file("out/errors.jsonl"))
        #expect(errors.count == kept.filter { $0.contains(" ERROR ") }.count)
        #expect(errors.allSatisfy { $0["category"] as? String == "error" })
        #expect(result.stderr.contains("filter[0] exclude category debug: \(heads.filter { $0.contains(" DEBUG ") }.count) entries"))
    }

    func records(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }
}
