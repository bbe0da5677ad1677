import ArgumentParser
import SpytailIO

/// `--config FILE`, shared by the subcommands; loading failures exit 2 with one line per problem.
struct ConfigOption: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("The JSON config file.", valueName: "file"))
    var config: String

    /// Loads and checks the config, or prints every problem and exits 2.
    func load() throws -> ConfigFile {
        do {
            return try ConfigFile(path: config)
        } catch {
            FileHandleStderr.write(error.description + "\n")
            throw ExitCode(2)
        }
    }
}
