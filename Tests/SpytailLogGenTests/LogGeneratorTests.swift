import Foundation
import Testing
@testable import SpytailLogGen

/// The generator is the ground truth of the scan tests and the benchmark: its promises are checked here
/// against the bytes it writes, counted without its own code.
struct LogGeneratorTests {
    @Test func theSameSeedGivesTheSameLinesAndAnotherSeedDoesNot() {
        let a = LogGenerator(lines: 2000, seed: 7).flatMap(\.lines)
        let b = LogGenerator(lines: 2000, seed: 7).flatMap(\.lines)
        let c = LogGenerator(lines: 2000, seed: 8).flatMap(\.lines)
        #expect(a == b)
        #expect(a != c)
        #expect(a.count == 2000)
    }

    @Test func everyLineCarriesItsLineNumberAndHeadsHaveTheDocumentedShape() throws {
        let lines = LogGenerator(lines: 20_000).flatMap(\.lines)
        let head = try Regex(#"^2026-11-2\dT\d\d:\d\d:\d\d\.\d{6}Z (DEBUG|INFO|WARN|ERROR) (\[(tca|todos|network|db)\] ){0,2}\S"#)
        var continuations = 0
        for (index, line) in lines.enumerated() {
            #expect(line.contains("seq=\(index + 1)"), "line \(index + 1)")
            if line.hasPrefix("\t") || line.hasPrefix("    ") {
                continuations += 1
                #expect(!line.contains("heartbeat"))
            } else {
                #expect(line.firstMatch(of: head) != nil, "line \(index + 1): \(line.prefix(80))")
                let message = line.split(separator: " ", maxSplits: 2).last.map { $0.replacing(#/^(\[[a-z]+\] )*/#, with: "") } ?? ""
                #expect((40...300).contains(message.utf8.count), "line \(index + 1) message bytes")
            }
        }
        #expect(continuations > 0)
        #expect(lines.contains { $0.contains("Caf\u{e9}") || $0.contains("\u{2708}") || $0.contains("\u{300c}") })
        #expect(lines.contains { $0.contains("\\") && $0.contains("\"") })
    }

    @Test func theCountsAgreeWithTheLinesWritten() throws {
        let dir = NSTemporaryDirectory() + "spytail-loggen-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let counts = try ChainWriter.writeChain(lines: 30_000, rotations: 4, in: dir)
        #expect(counts.files.map { URL(fileURLWithPath: $0.path).lastPathComponent }
                == ["app.log.4.gz", "app.log.3.gz", "app.log.2.gz", "app.log.1", "app.log"])
        var all: [String] = []
        for file in counts.files {
            let text = try decompressed(file.path)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(lines.count == file.lines)
            #expect(text.utf8.count == file.bytes)
            #expect(!(lines.first?.hasPrefix("\t") ?? false) && !(lines.first?.hasPrefix(" ") ?? false), "cut at an event boundary")
            all += lines
        }
        #expect(all.count == 30_000)
        #expect(counts.lines == 30_000)
        let heads = all.filter { !$0.hasPrefix("\t") && !$0.hasPrefix(" ") }
        let kept = heads.filter { !$0.contains(" DEBUG ") && !$0.contains("heartbeat") }
        #expect(counts.keptJoin == kept.count)
        #expect(counts.keptHeadsOnly == kept.count)
        #expect(counts.keptNoJoin == kept.count + (all.count - heads.count))
        #expect(counts.continuationLines == all.count - heads.count)
        #expect(counts.heartbeats == heads.filter { $0.contains("heartbeat") }.count)
        #expect(counts.levels["ERROR"] == heads.filter { $0.contains(" ERROR ") }.count)
        #expect(counts.bytes == counts.files.reduce(0) { $0 + $1.bytes })
    }

    @Test func theVerifierFindsMissingRepeatedAndOutOfOrderRecords() throws {
        let events = Array(LogGenerator(lines: 5000))
        let kept = events.filter(\.isKept).map { "{\"message\":\"x seq=\($0.headSeq)\"}" }
        let verifier = OutputVerifier(lines: 5000)
        func check(_ lines: [String]) throws -> OutputVerifier.Report {
            let path = NSTemporaryDirectory() + "spytail-verify-\(UUID().uuidString)"
            defer { unlink(path) }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
            return try verifier.verify(path: path)
        }
        let good = try check(kept)
        #expect(good.matches == .join)
        #expect(good.inOrder)
        let missing = try check(Array(kept.dropFirst()))
        #expect(missing.matches == nil)
        #expect(missing.differences[.join]?.missing == 1)
        let repeated = try check(kept + [kept[3]])
        #expect(repeated.matches == nil)
        #expect(repeated.duplicates == 1)
        let reordered = try check([kept[1], kept[0]] + kept.dropFirst(2))
        #expect(reordered.matches == .join)
        #expect(!reordered.inOrder)
        let withoutSeq = try check(kept + ["{}"])
        #expect(withoutSeq.matches == nil)
    }

    @Test(arguments: [(0, "1970-01-01T00:00:00"), (951_782_400, "2000-02-29T00:00:00"), (1_795_168_800, "2026-11-20T10:00:00"),
                      (4_107_542_399, "2100-02-28T23:59:59")])
    func civilTimeMatchesTheCalendar(_ seconds: Int, _ expected: String) {
        #expect(CivilTime(epochSeconds: seconds).iso8601 == expected)
    }

    func decompressed(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dcf", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
