import ArgumentParser
import SpytailCore
import SpytailIO

/// `spytail check`: validates a config and prints a one-line summary (or the ClickHouse tables' DDL).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file.",
        discussion: """
            Checks types, unknown keys, regexes, names across fields (exactly one default category, unique \
            names, filters and 'where' naming known categories, tags and integrations) and that output \
            folders and files (passwordFile, tokenFile) exist. Every problem is printed with its JSON path, e.g. \
            'config.json: parse.tags[2].match.regex: invalid regex: …'. Exit 0 if valid, 2 if not.
            """)

    @OptionGroup var options: ConfigOption

    @Flag(help: "Print the CREATE TABLE statement of every clickhouse output (what \"createTable\": true runs) instead of the summary.")
    var printDdl = false

    func run() throws {
        let file = try options.load()
        guard printDdl else {
            print("\(file.path): ok: \(file.compiled.summary)")
            return
        }
        var printed = Set<String>()
        for output in file.config.outputs {
            guard case .clickhouse(let settings) = output.destination else { continue }
            let ddl = ClickHouseTable.createStatement(database: settings.database, table: settings.table)
            if printed.insert(ddl).inserted { print(ddl + ";\n") }
        }
        if printed.isEmpty {
            FileHandleStderr.write("\(file.path): no clickhouse output: nothing to print\n")
            throw ExitCode(2)
        }
    }
}
