import ArgumentParser
import Glibc
import Logging
import SpytailCore
import SpytailHTTP
import SpytailIO
import SpytailShipping

/// `spytail run`: follows the configured sources and exports every new line until SIGTERM.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Follow the configured sources and export every new line, until SIGTERM or SIGINT.",
        discussion: """
            Watches the folders of the sources' include patterns with inotify, follows each live file through \
            rename and copytruncate rotation, and saves its position in the checkpoint file after the outputs \
            have the data. On start it resumes every checkpointed file (also when it was rotated and \
            compressed meanwhile); files never seen start per the source's "startAt": "beginning" reads \
            the file's rotated chain oldest first, then the live file (once: a restart skips that history); \
            "end" starts with what is written from now on.

            Signals: SIGTERM/SIGINT stop (flush, checkpoint, exit 0); SIGHUP reloads the config (so does \
            saving the config file); SIGUSR1 switches recording ⇄ idle. A reloaded config that does not \
            check out is refused and the running one stays.

            Trouble is named once on stderr and the rest keeps flowing: an unreadable file is read once it \
            becomes readable; a full output disk pauses reading (nothing is checkpointed past what is written) \
            until space returns; without inotify (fs.inotify.max_user_instances or max_user_watches reached) \
            files and the config are looked at every 2 s. Losses that cannot be avoided (copytruncate, a \
            damaged gzip, content rotated away while stopped) become "gap" records in every output.

            HTTP (off unless the config has an "http" section or --http is given): GET /metrics (Prometheus), \
            /healthz, /readyz (open); /api/info, /api/entries, /api/stream (server-sent events), POST /api/state \
            and /api/reload need the token (http.tokenFile, else a random one printed on stderr with the URL).

            Exit 0 after SIGTERM/SIGINT, or when the reader of stdout goes away (checkpoints stay at what it \
            took); 2 for a bad config; 1 if an output fails otherwise.
            """)

    @OptionGroup var options: ConfigOption

    @Flag(name: .shortAndLong, help: "Report every file followed, rotated, closed.")
    var verbose = false

    @Option(help: ArgumentHelp("Serve metrics, probes and the API on HOST:PORT (overrides http.listen; port 0: any free port).",
                               valueName: "host:port"))
    var http: String?

    func run() throws {
        SignalListener.blockSignals()  // before any thread starts, so every thread inherits the mask
        let file = try options.load()
        guard !file.config.sources.isEmpty else {
            FileHandleStderr.write("\(file.path): sources: run needs at least one source\n")
            throw ExitCode(2)
        }
        var logger = Logger(label: "spytail")
        logger.logLevel = verbose ? .info : .notice
        let override = try http.map(Self.parseListen)
        let store = file.checkpointPath.map(FileCheckpointStore.init)
        if store == nil { logger.warning("no \"checkpoints\" in \(file.path): a restart reads files again from the start") }
        // The HTTP face observes the run through its telemetry; it is made even while the face is off, so a
        // reload that turns it on finds the counters since the start.
        let telemetry = RunTelemetry(recentEntries: (file.config.http?.recentEntries ?? 5000))
        let face = HTTPFaceController(telemetry: telemetry, override: override)
        let reporter = TelemetryReporter(forwardingTo: RunReporter(logger: logger), telemetry: telemetry)
        do {
            for line in try face.apply(file) { FileHandleStderr.write(line + "\n") }
        } catch {
            FileHandleStderr.write("\(error)\n")
            throw ExitCode(2)
        }
        defer { face.stop() }
        do {
            let tailer = try Tailer(configFile: file, store: store, events: reporter, clock: ContinuousClock(), telemetry: telemetry,
                                    remote: NetworkOutputOpener())
            tailer.onReload = { newFile in
                do {
                    for line in try face.apply(newFile) { FileHandleStderr.write(line + "\n") }
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            let inbox = tailer.inbox
            let signals = SignalListener { signal in inbox.push(.signal(signal)) }
            try tailer.run()
            withExtendedLifetime(signals) {}
        } catch {
            if error.cause == .closedByReader {
                FileHandleStderr.write("spytail: \(error.destination) was closed by its reader; stopped\n")
                return
            }
            FileHandleStderr.write("spytail: error: \(error)\n")
            throw ExitCode(1)
        }
    }
}

extension RunCommand {
    static func parseListen(_ text: String) throws -> ListenAddress {
        switch ListenAddress.parse(text) {
        case .success(let address): return address
        case .failure(let error):
            FileHandleStderr.write("spytail: --http: \(error.message)\n")
            throw ExitCode(2)
        }
    }
}
