import Foundation
import Testing
import SpytailTestSupport

/// `run`'s first start on a folder whose app already rotated: with `startAt: beginning` the chain is read
/// oldest first (damage reported as `scan` does), then the live file is followed; `startAt: end` skips both.
@Suite(.ownThread)
struct RunHistoryTests {
    /// logs/app.log.3.gz cut at 3/4 (seq 1…2000), app.log.2-style dated copy, app.log.1, app.log.
    static func damagedChain() throws -> (TemporaryDirectory, String) {
        let dir = try RunTools.workspace()
        func lines(_ range: ClosedRange<Int>) -> String { range.map { "2026-11-20T10:00:00Z INFO seq=\($0) payload\n" }.joined() }
        dir.write("logs/app.log.3", lines(1...2000))
        _ = try Harness.run("/bin/gzip", [dir.file("logs/app.log.3")])
        let gz = dir.read("logs/app.log.3.gz")
        dir.write("logs/app.log.3.gz", Array(gz.prefix(gz.count * 3 / 4)))
        dir.write("logs/app.log.2", lines(2001...2100))
        dir.write("logs/app.log.1", lines(2101...2200))
        dir.write("logs/app.log", lines(2201...2300))
        return (dir, dir.file("out.jsonl"))
    }

    @Test func theHistoryFirstWithTheDamageNamedThenTheLiveFileAndNothingAgainAfterARestart() throws {
        let (dir, output) = try Self.damagedChain()
        defer { dir.remove() }
        let config = dir.write("c.json", RunTools.config())
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.reached(output, 2300) }, "\(first.stderr)")
        #expect(first.stop().status == 0)
        #expect(first.stderr.contains("logs/app.log.3.gz: gzip data ends early (truncated file?) at compressed offset"), "\(first.stderr)")
        let gaps = RunTools.sequences(in: output).gaps
        let seqs = ChainCheck.sequence(RunToolsOutput(path: output).messages)
        var history = Array(seqs.prefix { $0 <= 2000 })
        if history.last != history.count { history.removeLast() }  // the line the damage cut (documented)
        #expect(history == Array(1...max(1, history.count)) && history.count > 1000, "lines before the damage, in order: \(history.count)")
        #expect(Array(seqs.drop { $0 <= 2000 }) == Array(2001...2300),
                "then the newer members and the live file, each once")
        #expect(gaps.count == 1 && gaps.first?["fields"].flatMap { ($0 as? [String: Any])?["gapReason"] as? String } == "damaged", "\(gaps)")

        let second = try RunningSpytail(config: config, in: dir)
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:00:00Z INFO seq=2301 after the restart\n")
        #expect(RunTools.waitUntil { RunTools.reached(output, 2301) }, "\(second.stderr)")
        #expect(second.stop().status == 0)
        let after = ChainCheck.sequence(RunToolsOutput(path: output).messages)
        #expect(after == seqs + [2301], "nothing of the history again")
        #expect(RunTools.sequences(in: output).gaps.count == 1, "no second damage report")
        #expect(!second.stderr.contains("app.log.3.gz"), "\(second.stderr)")
    }

    @Test func startAtEndSkipsTheHistoryAndTheLiveFilesContent() throws {
        let (dir, output) = try Self.damagedChain()
        defer { dir.remove() }
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"], "startAt": "end"}], "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}"#)
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) })
        try RunToolsOutput.append(dir.file("logs/app.log"), "2026-11-20T10:00:00Z INFO seq=2301 new\n")
        #expect(RunTools.waitUntil { RunTools.reached(output, 2301) }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        #expect(ChainCheck.sequence(RunToolsOutput(path: output).messages) == [2301])
        #expect(!spytail.stderr.contains("app.log.3.gz"))
    }
}
