import ArgumentParser
import Glibc
import Logging
import SpytailCore
import SpytailHTTP
import SpytailIO

/// `spytail explore`: indexes files (or the configured sources with their rotated chains) with the config's
/// rules and serves the history over HTTP (the dashboard's history view and its API) until SIGTERM or SIGINT.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Index logs with the config's rules and browse them over HTTP: search, time histogram, context (post-mortem).",
        discussion: """
            Reads the PATHs (or every configured source with its rotated chain, oldest first) through the same \
            reading path, parsers, rules and filters as 'scan', keeps an index of every entry (file, offset, \
            time, category, tags, source; not the text), orders the entries by time across files and sources, \
            and serves them until SIGTERM or SIGINT (which stop it at once while it indexes, too). The text \
            is read again from the files when it is shown or searched, so the files must stay where they are.

            The server listens on --http, else the config's http.listen, else 127.0.0.1:0 (a free port); the \
            token is http.tokenFile's, else a random one printed with the URL on stderr. /healthz answers at \
            once, /readyz with 200 once the index is built (503 with the progress before). The API needs the \
            token (Authorization: Bearer TOKEN, or the cookie set by opening /?token=TOKEN):

              /api/info: entries, time span, files, categories, tags, sources
              /api/entries?after=ROW&limit=N: a page of records, oldest first;
                X-Spytail-Next is the after= of the next page, X-Spytail-Total
                the matches in the window (X-Spytail-Counted: those found so
                far, when a search stopped at its page)
              /api/count: {"total": N}, the matches in the window
              /api/histogram?buckets=N: entries per time bucket and category
              /api/facets[?field=PATH]: entries per category, tag, source,
                file; with field=, the field's top values in a sample
              /api/context?id=ID&before=N&after=N: an entry and its
                neighbours in its own file
              /api/download: the view as a jsonl file

            Every view takes from= and to= (RFC 3339, or milliseconds since 1970; to is exclusive), q= (a \
            text, smart case: case-insensitive unless it has capitals) or regex= (PCRE2), and include= / \
            exclude= conditions as for 'run' (category:error, tag:NAME, source:NAME, contains:TEXT, \
            prefix:TEXT, or a JSON condition on a field).

            A file that cannot be read, or a gzip that is damaged, is reported on stderr; what was read before \
            the damage is indexed, followed by a "gap" entry where reading stopped.

            With --follow, the live files (a configured source's, or the PATHs that are not a rotated copy of \
            another PATH) are read on after indexing, every --follow-interval ms: new entries join the view, \
            a rotation by rename is read to its end and the new file from its start, a copytruncate is read \
            from the copy with a gap entry for what may be lost.

            A gzip file is indexed with seek points (every --seek-points-every MiB of its decompressed text, \
            about 55 KB each), so showing an entry deep inside a large member inflates from the nearest point \
            instead of from the start of the file.
            """)

    @OptionGroup var options: ConfigOption

    @Argument(help: ArgumentHelp("Files to read instead of the configured sources.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Read the PATHs as files of this configured source: its parser, its name in the records.",
                               valueName: "name"))
    var source: String?

    @Option(help: ArgumentHelp("Serve on HOST:PORT (overrides http.listen; port 0: any free port). Default 127.0.0.1:0.",
                               valueName: "host:port"))
    var http: String?

    @Flag(help: ArgumentHelp("Keep reading the live files (not their rotated copies) after indexing: new entries join the view, through rotations."))
    var follow = false

    @Option(help: ArgumentHelp("With --follow: milliseconds between looks at the live files.", valueName: "ms"))
    var followInterval: Int = 250

    @Option(help: ArgumentHelp("MiB of decompressed text between a gzip file's seek points (0: none; each entry is then inflated from the file's start).",
                               valueName: "mib"))
    var seekPointsEvery: Int = Int(HistoryIndexer.defaultSeekPointSpacing >> 20)

    @Flag(name: .shortAndLong, help: "No progress on stderr; the address, the URL and problems are still printed.")
    var quiet = false

    func validate() throws {
        if paths.contains("-") { throw ValidationError("explore reads files again when it shows them: standard input ('-') cannot be explored") }
        if !(10...60_000).contains(followInterval) { throw ValidationError("--follow-interval \(followInterval): milliseconds, 10 to 60000") }
        if seekPointsEvery < 0 { throw ValidationError("--seek-points-every \(seekPointsEvery): MiB, 0 or more") }
    }

    func run() throws {
        SignalListener.blockSignals()  // before any thread starts, so every thread inherits the mask
        let file = try options.load()
        let compiled = file.compiled  // loading compiled it (and said every problem)
        let listen = try http.map(RunCommand.parseListen) ?? file.config.http?.listen ?? ListenAddress(host: "127.0.0.1", port: 0)
        let token: String, origin: APIToken.Origin
        do {
            (token, origin) = try APIToken.load(file)
        } catch {
            FileHandleStderr.write("spytail: \(error)\n")
            throw ExitCode(2)
        }
        let inputs = try InputPaths.resolve(file, paths: paths, source: source, command: "explore")
        let stops = BlockingQueue<Int32>()
        let indexed = Locked(false)
        let signals = SignalListener { signal in
            guard signal == SIGTERM || signal == SIGINT else { return }
            // While indexing there is nothing to keep: stop at once rather than after the last file.
            if !indexed.withLock({ $0 }) {
                FileHandleStderr.write("\nspytail: explore: stopped while indexing (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))\n")
                Glibc.exit(0)
            }
            stops.push(signal)
        }
        let face = ExploreFace(listen: listen, token: token)
        let address: ListenAddress
        do {
            address = try face.start()
        } catch {
            FileHandleStderr.write("spytail: --http: \(error)\n")
            throw ExitCode(2)
        }
        defer { face.stop() }
        FileHandleStderr.write("spytail: http: listening on \(address)\n")
        FileHandleStderr.write("spytail: explore: http://\(HTTPFaceController.browsable(address))/" + (origin == .random ? "?token=\(token)" : "") + "\n")

        let clock = ContinuousClock()
        let started = clock.now
        let console = ConsoleReporter(logger: Logger(label: "spytail"), verbose: false, progress: !quiet && isatty(STDERR_FILENO) == 1,
                                      clock: clock, totalFiles: inputs.count)
        let reporter = ExploreProgress(console: console, face: face, totalFiles: inputs.count)
        let indexer = HistoryIndexer(config: compiled, events: reporter,
                                     seekPointSpacing: seekPointsEvery > 0 ? Int64(seekPointsEvery) << 20 : nil)
        let live = follow ? InputPaths.liveFiles(file, inputs: inputs, explicit: !paths.isEmpty) : []
        let (index, report) = indexer.index(files: inputs, follow: live)
        console.endProgress()
        let follower = indexer.follower(config: compiled)
        let explorer = Explorer(index: index, config: compiled, seekPoints: indexer.seekPoints, following: follower?.paths ?? [])
        face.serve(explorer)
        indexed.withLock { $0 = true }
        let elapsed = started.duration(to: clock.now)
        FileHandleStderr.write("spytail: explore: \(index.count) entries of \(report.filesRead) files (\(report.linesRead) lines, "
            + "\(report.bytesRead / 1_000_000) MB) indexed in \(ScanSummary.format(Self.seconds(elapsed))) s" + Self.seekPointSummary(indexer.seekPoints)
            + "; ready\n")
        if !report.errors.isEmpty { FileHandleStderr.write("spytail: explore: \(report.errors.count) files could not be read whole (see above)\n") }
        if follow {
            FileHandleStderr.write("spytail: explore: following " + (follower.map { "\($0.paths.count) live files: " + $0.paths.joined(separator: ", ") }
                ?? "nothing (no live plain file among those read)") + "\n")
        }
        var signal: Int32?
        while signal == nil {
            guard let follower else {
                signal = stops.pop()
                break
            }
            signal = stops.pop(timeout: .milliseconds(followInterval)) ?? nil
            if signal == nil { explorer.follow(follower) }
        }
        withExtendedLifetime(signals) {}
        FileHandleStderr.write("spytail: explore: stopped (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))\n")
    }

    /// ", 72 gzip seek points (4.0 MB)", or nothing when none were recorded.
    static func seekPointSummary(_ points: [Int: GzipSeekPoints]) -> String {
        let count = points.values.reduce(0) { $0 + $1.count }
        guard count > 0 else { return "" }
        let bytes = points.values.reduce(0) { $0 + $1.memoryBytes }
        return ", \(count) gzip seek points (\(ScanSummary.format(Double(bytes) / 1_000_000)) MB)"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Indexing's events: to the console (problems, the progress line) and, as one line, to `/readyz`.
final class ExploreProgress: EventReporter {
    let console: any EventReporter
    let face: ExploreFace
    let totalFiles: Int
    private var filesDone = 0

    init(console: any EventReporter, face: ExploreFace, totalFiles: Int) {
        self.console = console
        self.face = face
        self.totalFiles = totalFiles
    }

    func report(_ event: SpytailEvent) {
        console.report(event)
        switch event {
        case .fileFinished: filesDone += 1
        case .progress(let path, let bytes, let lines):
            face.report(progress: "file \(filesDone + 1) of \(totalFiles), \(path): \(bytes / 1_000_000) MB, \(lines) lines")
        default: break
        }
    }
}
