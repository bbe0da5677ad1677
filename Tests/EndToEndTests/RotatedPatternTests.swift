import Foundation
import Testing
import SpytailTestSupport

/// Names that change the base, as logback's and log4j2's rolling policies write them
/// (`app.2026-11-22.0.log.gz`, `app.2026-11-22.1.log.gz`, … beside the live `app.log`): a source's
/// `rotatedPattern` with `date` and `index` groups makes them one chain, and the `*.log` glob no longer
/// takes a rolled copy for a second live file. (No JVM logger is installed here: the files are named as
/// those libraries name them, by the test.)
@Suite(.ownThread)
struct RotatedPatternTests {
    static let pattern = #"app\\.(?<date>\\d{4}-\\d\\d-\\d\\d)\\.(?<index>\\d+)\\.log"#

    @Test func logbackNamesAreOneChainOrderedByDateThenIndex() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        // Oldest first: 22nd #0, #1, … #10 (numeric, not text order), 23rd #0, #1, then the live file.
        let members = (0...10).map { "app.2026-11-22.\($0).log" } + ["app.2026-11-23.0.log", "app.2026-11-23.1.log"]
        var seq = 0
        for (i, name) in members.enumerated() {
            let text = (1...20).map { _ in seq += 1; return "2026-11-20T10:00:00Z INFO seq=\(seq)\n" }.joined()
            dir.write("logs/\(name)", text)
            if i % 2 == 0 { _ = try Harness.run("/bin/gzip", [dir.file("logs/\(name)")]) }
        }
        dir.write("logs/app.log", (1...20).map { _ in seq += 1; return "2026-11-20T10:00:00Z INFO seq=\(seq)\n" }.joined())
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"], "rotatedPattern": "\#(Self.pattern)"}], "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}"#)
        let check = ChainCheck(dir: dir, config: config, lines: seq)
        try check.scanConfigured()
        try check.firstStartThenRestart()
    }

    @Test func aPatternWithoutDateOrIndexIsAConfigError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["*.log"], "rotatedPattern": "app\\..*\\.log"}, {"name": "b", "include": ["b.log"], "rotatedPattern": "(?<date>"}]}"#)
        let result = try Harness.spytail(["check", "-c", config])
        #expect(result.status == 2)
        #expect(result.stderr.contains("sources[0].rotatedPattern: needs a named group 'date' or 'index'"), "\(result.stderr)")
        #expect(result.stderr.contains("sources[1].rotatedPattern: invalid regex"), "\(result.stderr)")
    }
}
