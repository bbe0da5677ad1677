import ArgumentParser
import SpytailLogGen

/// `spytail-bench generate`: writes a deterministic app log or rotated chain and prints what it holds.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic app log, or a rotated chain, and print its expected counts as JSON.",
        discussion: """
            Head lines look like `2026-11-20T10:00:00.123456Z INFO [tca] [db] Store: action received … seq=17`:
            levels DEBUG/INFO/WARN/ERROR (30/50/15/5 %), 0-2 bracketed tags, 40-300 byte UTF-8 messages, ~2 % heartbeat
            messages, ~1 % of ERROR heads followed by 3-8 indented stack-trace lines. Every physical line carries
            seq=N, its line number in the oldest-first stream. The same --lines and --seed give byte-identical files.
            The JSON on stdout gives kept_join (records kept by the reference filter, DEBUG and "heartbeat" dropped,
            continuation lines joined), kept_no_join, kept_heads_only, and the files written oldest first.
            With --json: JSON lines instead (W3's shape: ts, level, logger, msg, trace_id, span_id, http{…}, user{…},
            ~5 % exc_info), and "kept" counts lines with level WARNING/ERROR or http.status >= 500.
            """)

    @Option(help: "Physical lines in total.") var lines = 100_000
    @Option(help: "Seed of the generator.") var seed: UInt64 = 42
    @Option(help: "One plain file.") var out: String?
    @Option(help: "A folder to write app.log.K.gz … app.log.2.gz, app.log.1, app.log into (oldest lines in the highest number).")
    var rotatedChain: String?
    @Option(help: "K, the rotated copies in --rotated-chain.") var rotations = 9
    @Flag(help: "JSON lines (with --out only).") var json = false

    func validate() throws {
        guard (out == nil) != (rotatedChain == nil) else { throw ValidationError("give exactly one of --out or --rotated-chain") }
        guard rotations >= 1 else { throw ValidationError("--rotations must be at least 1") }
        guard lines >= 0 else { throw ValidationError("--lines must not be negative") }
        if json && out == nil { throw ValidationError("--json writes one file: give --out") }
    }

    func run() throws {
        if json, let out {
            print(try JSONLogWriter.writeFile(lines: lines, seed: seed, to: out).json)
            return
        }
        let counts = if let out { try ChainWriter.writeFile(lines: lines, seed: seed, to: out) }
            else { try ChainWriter.writeChain(lines: lines, seed: seed, rotations: rotations, in: rotatedChain!) }
        print(counts.json)
    }
}
