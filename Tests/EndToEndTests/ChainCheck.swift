import Foundation
import Testing
import SpytailTestSupport

/// One rotated chain on disk, lines `seq=1…N` written by a real writer, checked three ways: `scan` of the
/// configured source, `scan` of explicit paths in the shell's order, and `run`'s first start followed by a
/// restart that must export nothing again. Each must give every line once, oldest first.
struct ChainCheck {
    let dir: TemporaryDirectory
    /// The config (relative paths are relative to `dir`); its output is `out.jsonl`.
    let config: String
    let lines: Int

    /// Runs the three checks and records an issue for each difference.
    func all(explicit: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try scanConfigured(sourceLocation: sourceLocation)
        try scanExplicit(explicit, sourceLocation: sourceLocation)
        try firstStartThenRestart(sourceLocation: sourceLocation)
    }

    func scanConfigured(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Harness.spytail(["scan", "-c", config, "--format", "jsonl", "-o", "-"], cwd: dir.path)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        expectEveryLineOnceInOrder(Self.sequence(result.stdoutLines), "scan (configured)", sourceLocation)
    }

    /// `paths` are relative to `dir`, in the order a shell glob gives them (the live file usually first).
    func scanExplicit(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Harness.spytail(["scan", "-c", config, "--format", "jsonl", "-o", "-"] + paths, cwd: dir.path)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        expectEveryLineOnceInOrder(Self.sequence(result.stdoutLines), "scan \(paths.joined(separator: " "))", sourceLocation)
    }

    func firstStartThenRestart(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = dir.file("out.jsonl")
        try? FileManager.default.removeItem(atPath: output)
        try? FileManager.default.removeItem(atPath: dir.file("state/cp.json"))
        let first = try RunningSpytail(config: config, in: dir)
        let reached = RunTools.waitUntil(30) { RunTools.reached(output, lines) }
        #expect(first.stop().status == 0, sourceLocation: sourceLocation)
        #expect(reached, "run's first start did not reach seq=\(lines): \(first.stderr)", sourceLocation: sourceLocation)
        expectEveryLineOnceInOrder(Self.sequence(fileLines(output)), "run (first start)", sourceLocation)

        // A restart exports nothing of the history again: the next line written is the next line out.
        let second = try RunningSpytail(config: config, in: dir)
        try RunToolsOutput.append(liveFile, "2026-11-20T10:00:00Z INFO seq=\(lines + 1) after the restart\n")
        let next = RunTools.waitUntil(20) { RunTools.reached(output, lines + 1) }
        #expect(second.stop().status == 0, sourceLocation: sourceLocation)
        #expect(next, "\(second.stderr)", sourceLocation: sourceLocation)
        let all = Self.sequence(fileLines(output))
        #expect(all.count == lines + 1 && all.last == lines + 1,
                "after the restart: \(all.count) records for \(lines + 1) lines; \(second.stderr)", sourceLocation: sourceLocation)
    }

    var liveFile: String { dir.file("logs/app.log") }

    func expectEveryLineOnceInOrder(_ seqs: [Int], _ what: String, _ location: SourceLocation) {
        let missing = Set(1...lines).subtracting(seqs).count
        let inOrder = zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }
        #expect(seqs == Array(1...lines), "\(what): \(seqs.count) records for \(lines) lines, \(missing) missing, in order: \(inOrder)",
                sourceLocation: location)
    }

    func fileLines(_ path: String) -> [String] {
        TextLines.ofFile(path)
    }

    /// The `seq=N` of each record (gap records have none and are skipped).
    static func sequence(_ lines: [String]) -> [Int] {
        lines.compactMap(RunTools.seq(in:))
    }

    /// Names in `folder` (relative to `dir`) sorted as a shell glob sorts them, with the folder prefixed.
    func globbed(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.file(folder))) ?? []).sorted().map { "\(folder)/\($0)" }
    }
}

/// A logrotate naming scheme for a test: the lines it adds to the logrotate block, and what the source needs.
struct LogrotateScheme: CustomTestStringConvertible, Sendable {
    let name: String
    let logrotate: String
    /// Extra members of the source's config (`, "olddir": "old"`).
    let source: String
    var testDescription: String { name }
}
