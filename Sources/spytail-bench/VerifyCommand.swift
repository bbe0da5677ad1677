import ArgumentParser
import SpytailLogGen

/// `spytail-bench verify`: checks an output against the workload it was made from.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check an output of one record per line against a generated workload, by its seq=N tokens.",
        discussion: """
            Prints how many records are missing or unexpected for each expectation (join, no_join, heads_only),
            duplicates, and whether the records are in order; exits 0 when one expectation is met exactly.
            """)

    @Option(help: "The --lines the workload was generated with.") var lines: Int
    @Option(help: "The --seed the workload was generated with.") var seed: UInt64 = 42
    @Argument(help: "The output file (jsonl, text or logfmt: the first seq=N of each line counts).") var output: String

    func run() throws {
        let report = try OutputVerifier(lines: lines, seed: seed).verify(path: output)
        print(report.json)
        if report.matches == nil { throw ExitCode(1) }
    }
}
