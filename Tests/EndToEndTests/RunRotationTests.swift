import Foundation
import Testing
import SpytailTestSupport

/// `spytail run` against the real logrotate while a writer appends sequence-numbered lines at a few
/// thousand lines per second: no sequence number may be missing (unless a gap record says so) and
/// none may be exported twice.
@Suite(.ownThread, .serialized)
struct RunRotationTests {
    static let config = #"""
    {"sources": [{"name": "app", "include": ["logs/app.log"]}], "checkpoints": "state/checkpoints.json",
     "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$"},
     "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}
    """#

    /// A folder with `logs/app.log` (empty), `state/` and the config.
    static func prepare() throws -> (TemporaryDirectory, String, String) {
        let dir = TemporaryDirectory()
        for folder in ["logs", "state"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
        }
        dir.write("logs/app.log", "")
        return (dir, dir.file("logs/app.log"), dir.write("spytail.json", config))
    }

    enum Mode: String, CaseIterable, Sendable {
        case createCompressDelay = "create + compress + delaycompress"
        case copytruncateCompress = "copytruncate + compress"
        case createCompress = "create + compress"

        func logrotateConfig(_ log: String, writer: Int32) -> String {
            let body: String
            switch self {
            case .createCompressDelay: body = "create\n    compress\n    delaycompress"
            case .copytruncateCompress: body = "copytruncate\n    compress"
            case .createCompress: body = "create\n    compress"
            }
            let hup = self == .copytruncateCompress ? "" : "\n    postrotate\n        \(RunTools.reopenCommand(writer))\n    endscript"
            return "\(log) {\n    rotate 20\n    missingok\n    \(body)\(hup)\n}\n"
        }
    }

    @Test(arguments: Mode.allCases)
    func everyLineOnceThroughRotations(_ mode: Mode) throws {
        let (dir, log, config) = try Self.prepare()
        defer { dir.remove() }
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")

        let total = 12_000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 3000, in: dir)
        let rotateConfig = dir.write("logrotate.conf", mode.logrotateConfig(log, writer: writer.processIdentifier))
        var rotations = 0
        // Rotate each time another 1,500 lines are on disk (a condition, not a fixed pause).
        for step in 1...5 {
            RunTools.waitUntil(10) { RunTools.reached(dir.file("out.jsonl"), step * 1500) }
            let result = try RunTools.logrotate(rotateConfig, state: dir.file("state/logrotate.status"))
            #expect(result.status == 0, "logrotate: \(result.stderr)")
            rotations += 1
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0 && writer.terminationReason == .exit,
                "writer ended with \(writer.terminationStatus) (\(writer.terminationReason == .exit ? "exit" : "signal"))")
        #expect(RunTools.waitUntil(30) { RunTools.reached(dir.file("out.jsonl"), total) }, "\(spytail.stderr.suffix(3000))")
        let (status, _) = spytail.stop()
        #expect(status == 0)
        if !RunTools.reached(dir.file("out.jsonl"), total) {
            let listing = try Harness.run("/bin/sh", ["-c", "cd '\(dir.path)' && ls -la logs state && cat state/checkpoints.json && tail -c 600 out.jsonl && ps aux | grep -c spytail"])
            print("DEBUG \(mode.rawValue):\n\(listing.stdoutText)")
        }

        let (counts, gaps, _) = RunTools.sequences(in: dir.file("out.jsonl"))
        let missing = (1...total).filter { counts[$0] == nil }
        let duplicates = counts.values.filter { $0 > 1 }.count
        print("\(mode.rawValue): \(rotations) rotations, \(counts.count) of \(total) lines, \(missing.count) missing, \(duplicates) duplicated, \(gaps.count) gap records")
        #expect(duplicates == 0)
        if mode == .copytruncateCompress {
            // copytruncate can lose lines written between logrotate's copy and its truncation (logrotate's
            // manual says so); every such rotation must be reported as a possible gap, and the loss must stay
            // within that window: a few lines per rotation at this rate.
            let said = gaps.map { "\($0["fields"] ?? "-"): \($0["message"] ?? "-")" }.joined(separator: "\n")
            #expect(gaps.count == rotations, "\(gaps.count) gap records for \(rotations) rotations:\n\(said)\n\(spytail.stderr.suffix(3000))")
            #expect(gaps.allSatisfy { ($0["fields"] as? [String: String])?["gapReason"] == "copytruncate" }, "\(said)")
            // And nothing is missing that still exists somewhere: every lost line is gone from disk too.
            let onDisk = try Harness.run("/bin/sh", ["-c", "gzip -dcf \"$0\"/logs/app.log*", dir.path]).stdoutText
            let stillOnDisk = Set(onDisk.components(separatedBy: "seq=").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) })
            let lostOnDisk = Set(1...total).subtracting(stillOnDisk)
            print("copytruncate: \(lostOnDisk.count) lines gone from disk, \(missing.count) missing from the output")
            #expect(Set(missing).isSubset(of: lostOnDisk), "exported neither: \(Set(missing).subtracting(lostOnDisk).sorted().prefix(20))")
        } else {
            #expect(missing.count == 0, "missing \(missing.prefix(20))\n\(spytail.stderr.suffix(3000))")
            #expect(gaps.count == 0)
        }
        #expect(spytail.stderr.contains(mode == .copytruncateCompress ? "truncated" : "rotated"))
    }

    @Test func sigkillThenTwoRotationsWhileStoppedThenRestart() throws {
        let (dir, log, config) = try Self.prepare()
        defer { dir.remove() }
        let total = 10_000
        let first = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { first.stderr.contains("following") })
        let writer = try RunTools.startWriter(log, first: 1, count: 8000, rate: 4000, in: dir)
        RunTools.waitUntil { RunTools.reached(dir.file("out.jsonl"), 3000) }
        first.killHard()
        writer.waitUntilExit()
        // Two rotations while spytail is down, more lines after each; the oldest copy ends up gzipped.
        let rotateConfig = dir.write("logrotate.conf", "\(log) {\n    rotate 5\n    create\n    compress\n    delaycompress\n}\n")
        for (from, count) in [(8001, 1000), (9001, 1000)] {
            #expect(try RunTools.logrotate(rotateConfig, state: dir.file("state/logrotate.status")).status == 0)
            try RunTools.startWriter(log, first: from, count: count, rate: 100_000, in: dir).waitUntilExit()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).sorted()
        #expect(names == ["app.log", "app.log.1", "app.log.2.gz"], "\(names)")

        let second = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(30) { RunTools.reached(dir.file("out.jsonl"), total) }, "\(second.stderr)")
        #expect(second.stop().status == 0)
        let (counts, gaps, records) = RunTools.sequences(in: dir.file("out.jsonl"))
        let missing = (1...total).filter { counts[$0] == nil }
        let duplicated = counts.filter { $0.value > 1 }.map(\.key)
        print("sigkill: \(counts.count) of \(total) lines, \(missing.count) missing, \(duplicated.count) duplicated after the kill")
        #expect(missing.count == 0, "missing \(missing.prefix(20))\n\(second.stderr.suffix(3000))")
        #expect(gaps.count == 0)
        // Duplicates can only be the batch written but not yet checkpointed at the kill, and are identical.
        #expect(duplicated.allSatisfy { records[$0]?.count == 1 })
        #expect(duplicated.count < 3000)
        #expect(second.stderr.contains("app.log.2.gz: following from offset"))
    }
}
