import Foundation
import Glibc
import Testing
import SpytailTestSupport

/// Chains made by the real logrotate with the naming options people use: `dateext` with a `dateformat`,
/// `olddir` (with and without compression, numbered and dated) and `extension .log`. Each is checked as
/// `ChainCheck` does: scan of the source, scan of explicit paths, run's first start and a restart.
@Suite(.ownThread, .serialized)
struct LogrotateChainTests {
    static let batches = 4, perBatch = 250

    typealias Scheme = LogrotateScheme

    static let schemes = [
        Scheme(name: "dateext + dateformat + compress", logrotate: "dateext\n dateformat -%Y%m%d-%s\n compress\n delaycompress", source: ""),
        Scheme(name: "dateext + dateformat .%Y-%m-%d_%H-%M-%S", logrotate: "dateext\n dateformat .%Y-%m-%d_%H-%M-%S", source: ""),
        Scheme(name: "olddir + compress", logrotate: "olddir old\n compress", source: #", "olddir": "old""#),
        Scheme(name: "olddir + dateext", logrotate: "olddir old\n dateext\n dateformat -%Y%m%d-%s", source: #", "olddir": "old""#),
        Scheme(name: "extension .log + dateext + compress", logrotate: "extension .log\n dateext\n dateformat -%Y%m%d-%s\n compress",
               source: ""),
    ]

    @Test(arguments: schemes)
    func everyLineOnceOldestFirst(_ scheme: Scheme) throws {
        let dir = try RunTools.workspace(["logs/old", "state"])
        defer { dir.remove() }
        let log = dir.file("logs/app.log")
        let rotate = dir.write("logrotate.conf", "\(log) {\n rotate 50\n missingok\n create\n \(scheme.logrotate)\n}\n")
        var second = time(nil)
        for batch in 0..<Self.batches {
            let lines = (1...Self.perBatch).map { "2026-11-20T10:00:00Z INFO seq=\(batch * Self.perBatch + $0) payload\n" }.joined()
            if batch == 0 { dir.write("logs/app.log", lines) } else { try RunToolsOutput.append(log, lines) }
            guard batch < Self.batches - 1 else { break }
            let (clockMoved, result) = try RunTools.logrotateInANewSecond(rotate, state: dir.file("state/logrotate.status"), after: &second)
            #expect(clockMoved)
            #expect(result.status == 0, "logrotate: \(result.stderr)")
        }
        let config = dir.write("c.json", #"{"sources": [{"name": "app", "include": ["logs/*.log"]\#(scheme.source)}], "checkpoints": "state/cp.json", "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}"#)
        let check = ChainCheck(dir: dir, config: config, lines: Self.batches * Self.perBatch)
        let files = check.globbed("logs").filter { $0 != "logs/old" } + check.globbed("logs/old")
        #expect(files.count == Self.batches, "\(files)")
        try check.all(explicit: files)
    }

    /// Explicit paths whose copies are not beside the live file, given with or without it.
    @Test func explicitCopiesInAnotherFolderWithAndWithoutTheLiveFile() throws {
        let dir = try RunTools.workspace(["logs/old", "state"])
        defer { dir.remove() }
        for (name, range) in [("logs/old/app.log.3.gz", 1...100), ("logs/old/app.log.2", 101...200), ("logs/old/app.log.1", 201...300),
                              ("logs/app.log", 301...400)] {
            let text = range.map { "2026-11-20T10:00:00Z INFO seq=\($0)\n" }.joined()
            dir.write(name.replacingOccurrences(of: ".gz", with: ""), text)
            if name.hasSuffix(".gz") { _ = try Harness.run("/bin/gzip", [dir.file(name.replacingOccurrences(of: ".gz", with: ""))]) }
        }
        let config = dir.write("c.json", #"{"outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let check = ChainCheck(dir: dir, config: config, lines: 400)
        try check.scanExplicit(["logs/app.log", "logs/old/app.log.1", "logs/old/app.log.2", "logs/old/app.log.3.gz"])
        let copies = ChainCheck(dir: dir, config: config, lines: 300)
        try copies.scanExplicit(["logs/old/app.log.1", "logs/old/app.log.2", "logs/old/app.log.3.gz"])
    }
}
