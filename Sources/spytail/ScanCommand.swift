import ArgumentParser
import Glibc
import Logging
import SpytailCore
import SpytailIO

extension SpytailConfig.Output.Format: ExpressibleByArgument {}

/// `spytail scan`: reads files (or the configured sources with their rotated chains) to the end and exits.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read logs to their end with the config's rules, then exit (post-mortem analysis).",
        discussion: """
            Without PATHs, reads every configured source; a source with "rotated": true is read as its \
            rotated chain oldest first (app.log.11.gz … app.log.2.gz, app.log.1, then app.log; also \
            logrotate dateext with any dateformat, "extension", Python's TimedRotatingFileHandler names such \
            as app.log.2026-11-23_07-48-50, the source's "olddir" and "rotatedPattern"). PATHs are read in \
            the order given, except that the members of one rotated chain are read oldest first wherever \
            they sit, so 'spytail scan -c c.json app.log*' or 'logs/app.log logs/old/*' do the right \
            thing. Gzip is recognised by content, not by name. Each PATH is read with the parser of the \
            source whose include patterns take it (or whose rotated copy it is), else with the top-level \
            "parse"; --source names the source for all of them.

            A file that cannot be read, or a gzip that is truncated or corrupt, is reported on stderr with \
            its offset after everything before the damage is written, followed in every output by a "gap" \
            record (gapReason "damaged") where reading stopped; the scan goes on and exits 1. When the reader \
            of stdout goes away (| head), the scan stops and exits 0.

            With --merge, every file is read at once and the entries come out in the order of their \
            timestamps, across files and sources (an entry without a timestamp stays after the one before \
            it in its file; equal times keep the order of the files). Each file is still read in its own \
            order, so a rotated chain stays oldest first.

            A summary goes to stderr at the end (lines read, records per output, records per filter).
            """)

    @OptionGroup var options: ConfigOption

    @Argument(help: ArgumentHelp("Files to read instead of the configured sources ('-' is standard input).",
                                 valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Read the PATHs as files of this configured source: its parser, its name in the records.",
                               valueName: "name"))
    var source: String?

    @Option(help: ArgumentHelp("Keep only entries at or after this RFC 3339 time (e.g. 2026-11-20T10:00:00Z).",
                               valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Keep only entries before this RFC 3339 time.", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Replace the configured outputs by one output in this format: jsonl, text or logfmt.",
                               valueName: "format"))
    var format: SpytailConfig.Output.Format?

    @Option(name: [.short, .long],
            help: ArgumentHelp("Replace the configured outputs by one output to this file ('-' is stdout; relative to the current folder).",
                               valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Threads that parse and format (default: one per core). Reading and writing stay on the main thread, in order; --since/--until run on one thread.",
                               valueName: "n"))
    var threads: Int?

    @Flag(help: "Merge the files' entries into one stream ordered by timestamp (one thread; every file open at once).")
    var merge = false

    @Flag(name: .shortAndLong, help: "No progress and no summary on stderr; problems are still reported.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Report every file as it is started and finished.")
    var verbose = false

    func validate() throws {
        if let threads, threads < 0 || threads > 256 { throw ValidationError("--threads must be between 0 and 256") }
        if merge && threads != nil { throw ValidationError("--merge runs on one thread: leave out --threads") }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, TimestampParser.iso8601(value) == nil {
                throw ValidationError("\(name) '\(value)' is not an RFC 3339 time such as 2026-11-20T10:00:00Z")
            }
        }
        if let s = since.flatMap(TimestampParser.iso8601), let u = until.flatMap(TimestampParser.iso8601), s >= u {
            throw ValidationError("--since must be earlier than --until")
        }
    }

    func run() throws {
        let file = try options.load()
        var config = file.config
        if format != nil || output != nil { config.outputs = [adHocOutput()] }
        let compiled = try recompile(config, file)
        let clock = ContinuousClock()
        let started = clock.now
        let outputs: [OpenOutput]
        do {
            outputs = try OutputOpener.open(config.outputs, sources: config.sources, vocabulary: compiled.rules.vocabulary, resolve: file.resolve)
        } catch {
            FileHandleStderr.write("spytail: error: \(error)\n")
            throw ExitCode(1)
        }
        let window = (since != nil || until != nil)
            ? TimeWindow(since: since.flatMap(TimestampParser.iso8601), until: until.flatMap(TimestampParser.iso8601)) : nil
        let inputs = try inputPaths(file)
        let reporter = ConsoleReporter(logger: Logger(label: "spytail"), verbose: verbose,
                                       progress: !quiet && isatty(STDERR_FILENO) == 1, clock: clock, totalFiles: inputs.count)
        let report: ScanReport, statistics: () -> PipelineStats, filters: [String]
        do {
            if merge {
                let runner = MergeRunner(config: compiled, outputs: outputs, window: window, events: reporter)
                report = try runner.run(files: inputs)
                (statistics, filters) = ({ runner.statistics }, runner.filterDescriptions)
            } else {
                let runner = ScanRunner(config: compiled, outputs: outputs, window: window, events: reporter,
                                        workers: threads ?? WorkerThreads.availableCores)
                report = try runner.run(files: inputs)
                (statistics, filters) = ({ runner.statistics }, runner.filterDescriptions)
            }
        } catch {
            reporter.endProgress()
            if error.cause == .closedByReader {
                FileHandleStderr.write("spytail: \(error.destination) was closed by its reader; stopped early\n")
                return
            }
            FileHandleStderr.write("spytail: error: \(error)\n")
            throw ExitCode(1)
        }
        reporter.endProgress()
        if !quiet {
            let summary = ScanSummary(report: report, stats: statistics(), filters: filters,
                                      outputs: config.outputs, window: window, elapsed: started.duration(to: clock.now))
            FileHandleStderr.write(summary.text)
        }
        if !report.errors.isEmpty { throw ExitCode(1) }
    }

    /// The output `--format`/`--output` ask for.
    func adHocOutput() -> SpytailConfig.Output {
        guard let output, output != "-" else { return SpytailConfig.Output(destination: .stdout, format: format ?? .text) }
        let absolute = output.hasPrefix("/") ? output : Self.currentDirectory() + "/" + output
        return SpytailConfig.Output(destination: .file(absolute), format: format ?? .jsonl)
    }

    func recompile(_ config: SpytailConfig, _ file: ConfigFile) throws -> CompiledConfig {
        do {
            return try CompiledConfig(config)
        } catch {
            FileHandleStderr.write(error.errors.map { "\(file.path): \($0)\n" }.joined())
            throw ExitCode(2)
        }
    }

    func inputPaths(_ file: ConfigFile) throws -> [(path: String, source: Int)] {
        try InputPaths.resolve(file, paths: paths, source: source, command: "scan")
    }

    static func currentDirectory() -> String { InputPaths.currentDirectory() }
}
