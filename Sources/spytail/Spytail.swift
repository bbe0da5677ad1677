import ArgumentParser
import Glibc
import Logging
import SpytailIO

/// The `spytail` command: parses arguments, runs a subcommand, maps errors to exit codes
/// (0 ok, 1 runtime failure, 2 usage or config error).
@main
struct Spytail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spytail",
        abstract: "Log ingestion for Linux: tail, parse, filter and export application logs.",
        discussion: """
            spytail parses every line of application logs (plain, rotated, gzip-compressed) into entries \
            with a category and tags from a JSON config, filters them, and writes them to stdout or files \
            as jsonl, text or logfmt.

            Exit codes: 0 ok; 1 runtime failure (some input unreadable, an output failed); 2 usage or config error.
            """,
        version: BuildInfo.version,
        subcommands: [RunCommand.self, ScanCommand.self, ExploreCommand.self, CheckCommand.self])

    static func main() {
        // A closed stdout must show up as EPIPE on write, not kill the process mid-batch.
        signal(SIGPIPE, SIG_IGN)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label) }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            // swift-argument-parser uses 64 (EX_USAGE) for usage errors; spytail documents 2.
            if code == .validationFailure {
                FileHandleStderr.write(fullMessage(for: error) + "\n")
                FileHandleStderr.write("Run 'spytail --help' or 'spytail help <subcommand>' for usage.\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Writes to standard error without Foundation.
enum FileHandleStderr {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
