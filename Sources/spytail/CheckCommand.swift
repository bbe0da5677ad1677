import ArgumentParser
import SpytailIO

/// `spytail check`: validates a config and prints a one-line summary.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file.",
        discussion: """
            Checks types, unknown keys, regexes, names across fields (exactly one default category, unique \
            names, filters and 'where' naming known categories, tags and integrations) and that output \
            folders exist. Every problem is printed with its JSON path, e.g. \
            'config.json: parse.tags[2].match.regex: invalid regex: …'. Exit 0 if valid, 2 if not.
            """)

    @OptionGroup var options: ConfigOption

    func run() throws {
        let file = try options.load()
        print("\(file.path): ok: \(file.compiled.summary)")
    }
}
