import ArgumentParser

/// `spytail-bench`: the benchmark (`measure`, the default) and the workload tools it and the tests use.
@main
struct SpytailBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spytail-bench",
        abstract: "Benchmark spytail, and generate or verify the deterministic workloads it measures.",
        subcommands: [Benchmark.self, GenerateCommand.self, VerifyCommand.self, InflateCommand.self, FoundationJSONCommand.self, JSONParsersCommand.self],
        defaultSubcommand: Benchmark.self)
}
