import Foundation
import Glibc
import SpytailTestSupport
import Testing

/// A power loss keeps of an application's log what the kernel had written back (about all but the last half
/// minute), and the app writes on where the lost lines were: at offsets, hence ids, that records already went
/// out with. Played with the real binary on a real file, the cut made with truncate(2).
@Suite(.ownThread, .serialized)
struct PowerCutTests {
    static func line(_ n: Int) -> String { "2026-11-28T10:00:00Z INFO power seq=\(n) \(String(repeating: "x", count: n % 13))\n" }

    /// The saved checkpoint is past the cut: the restart reads on from the newest earlier position the file
    /// still holds (not from its start), in a new epoch of ids, and says so. Lines before that position do not
    /// come again; those between it and the cut come again under new ids; the new lines get ids no record had.
    @Test func aLogCutBackBehindTheCheckpointIsReadOnFromAnEarlierPositionUnderNewIds() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let log = dir.file("logs/app.log"), output = dir.file("out.jsonl")
        let (saved, anchor, idsBefore, before) = try Self.runUntilAnAnchorIsSaved(log: log, output: output, in: dir)

        // The power went: the file keeps one line past the anchor, then the app writes on from there.
        let (kept, between) = try Self.cutOneLinePast(anchor, log)
        #expect(Int64(kept) < saved.offset, "the cut lies behind the checkpoint")
        try RunToolsOutput.append(log, (1001...1005).map(Self.line).joined())

        let second = try RunningSpytail(config: dir.file("c.json"), in: dir)
        #expect(RunTools.waitUntil { RunTools.delivered(output, through: 1005) || RunTools.reached(output, 1005) })
        #expect(second.stop().status == 0)
        #expect(second.stderr.contains("reading on from offset \(anchor)"), "\(second.stderr)")
        let after = Array(RunToolsOutput(path: output).records.dropFirst(before))
        let seqs = after.compactMap { ($0["message"] as? String).flatMap(RunTools.seq) }
        // The anchor is where a line starts: the one line kept past it is the one read again.
        #expect(seqs == [between] + Array(1001...1005), "read on from the anchor: \(seqs)")
        let idsAfter = after.compactMap { $0["id"] as? String }
        let shared = Set(idsAfter).intersection(idsBefore)
        #expect(shared.isEmpty, "ids of the first run given to other lines: \(shared.sorted().prefix(5))")
    }

    /// The same cut, then the app writes on past the checkpoint's offset and logrotate renames the file and gzips
    /// it (real `gzip`) before the restart: the gzip copy is decompressed up to the offset, found to hold other
    /// bytes before it, and read on from the anchor under new ids. (It was read from the checkpoint's offset, and
    /// the lines the app wrote between the cut and that offset were lost.)
    @Test func aLogCutBackThenRotatedAndGzippedIsReadOnFromAnEarlierPosition() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let log = dir.file("logs/app.log"), output = dir.file("out.jsonl")
        let (saved, anchor, idsBefore, before) = try Self.runUntilAnAnchorIsSaved(log: log, output: output, in: dir)

        let (kept, between) = try Self.cutOneLinePast(anchor, log)
        var size = Int64(kept), next = 1000
        while size < saved.offset + 200 {
            next += 1
            try RunToolsOutput.append(log, Self.line(next))
            size += Int64(Self.line(next).utf8.count)
        }
        #expect(rename(log, log + ".1") == 0)
        #expect(try Harness.run("/usr/bin/gzip", [log + ".1"]).status == 0)
        FileManager.default.createFile(atPath: log, contents: nil)

        let config = dir.file("c.json")
        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.delivered(output, through: next) || RunTools.reached(output, next) })
        #expect(second.stop().status == 0)
        #expect(second.stderr.contains("app.log.1.gz: the bytes before the checkpoint's offset \(saved.offset) changed"), "\(second.stderr)")
        let after = Array(RunToolsOutput(path: output).records.dropFirst(before))
        let seqs = after.compactMap { ($0["message"] as? String).flatMap(RunTools.seq) }
        #expect(seqs == [between] + Array(1001...next), "read on from the anchor: \(seqs)")
        let shared = Set(after.compactMap { $0["id"] as? String }).intersection(idsBefore)
        #expect(shared.isEmpty, "ids of the first run given to other lines: \(shared.sorted().prefix(5))")
    }

    /// The first run of both tests: 50 lines, then more (each read and saved) until a save holds an anchor (a
    /// position at least 4 s old); a clean stop. Returns the saved checkpoint, its newest anchor, the ids out, and
    /// how many records.
    static func runUntilAnAnchorIsSaved(log: String, output: String, in dir: TemporaryDirectory) throws
        -> (saved: (offset: Int64, anchors: [Int64]), anchor: Int64, ids: Set<String>, records: Int) {
        try (1...50).map(Self.line).joined().write(toFile: log, atomically: false, encoding: .utf8)
        let config = dir.write("c.json", RunTools.config())
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { RunTools.delivered(output, through: 50) })
        var written = 50
        let anchored = RunTools.waitUntil(30) {
            if RunTools.delivered(output, through: written) && written < 200 {
                written += 1
                try? RunToolsOutput.append(log, Self.line(written))
            }
            return Self.anchors(in: dir.file("state/cp.json.recent")).count + Self.anchors(in: dir.file("state/cp.json")).count > 0
        }
        #expect(anchored, "no anchor saved after \(written) lines")
        #expect(RunTools.waitUntil { RunTools.delivered(output, through: written) })
        #expect(first.stop().status == 0)
        let saved = try #require(Self.checkpoint(in: dir.file("state/cp.json")))
        let anchor = try #require(saved.anchors.first)
        #expect(anchor < saved.offset)
        let records = RunToolsOutput(path: output).records
        return (saved, anchor, Set(records.compactMap { $0["id"] as? String }), records.count)
    }

    /// The power went: `log` keeps one line past `anchor` (truncate(2)). Returns its new size and that line's seq.
    static func cutOneLinePast(_ anchor: Int64, _ log: String) throws -> (kept: Int, between: Int) {
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
        var kept = 0, keptLines = 0
        while kept <= Int(anchor) { kept += lines[keptLines].utf8.count; keptLines += 1 }
        #expect(truncate(log, off_t(kept)) == 0)
        return (kept, try #require(RunTools.seq(in: String(lines[keptLines - 1]))))
    }

    /// The checkpoint `state/cp.json` (or `.recent`) holds for the one file: its offset.
    static func checkpoint(in path: String) -> (offset: Int64, anchors: [Int64])? {
        guard let data = FileManager.default.contents(atPath: path),
              let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let file = (top["files"] as? [[String: Any]])?.first, let offset = file["offset"] as? Int else { return nil }
        let anchors = (file["anchors"] as? [[Any]] ?? []).compactMap { $0.first as? Int }.map(Int64.init)
        return (Int64(offset), anchors)
    }

    static func anchors(in path: String) -> [Int64] { checkpoint(in: path)?.anchors ?? [] }
}
