import Logging
import SpytailIO

/// Tells the operator what happens: problems through swift-log on stderr, and a progress line on stderr
/// while it is a terminal, redrawn at most every 100 ms of the given clock.
final class ConsoleReporter<C: Clock>: EventReporter where C.Duration == Duration {
    let logger: Logger
    let verbose: Bool
    let progress: Bool
    let clock: C
    let totalFiles: Int
    private var filesDone = 0
    private var lastDraw: C.Instant?
    private var drawn = false

    init(logger: Logger, verbose: Bool, progress: Bool, clock: C, totalFiles: Int) {
        var logger = logger
        logger.logLevel = verbose ? .info : .notice
        self.logger = logger
        self.verbose = verbose
        self.progress = progress
        self.clock = clock
        self.totalFiles = totalFiles
    }

    func report(_ event: SpytailEvent) {
        switch event {
        case .readFailed(let error):
            endProgress()
            logger.error("\(error)")
        case .fileStarted(let path, let compressed):
            if verbose { endProgress(); logger.info("\(path): reading\(compressed ? " (gzip)" : "")") }
        case .fileFinished(let path, let lines, let bytes):
            filesDone += 1
            if verbose { endProgress(); logger.info("\(path): \(lines) lines, \(bytes) bytes") }
        case .progress(let path, let bytes, let lines):
            draw(path, bytes, lines)
        case .problem(let problem):
            endProgress()
            logger.warning("\(problem)")
        case .following, .rotated, .truncated, .closed, .gap, .stateChanged, .configReloaded, .configUnchanged, .configRejected:
            break  // events of `run`
        }
    }

    private func draw(_ path: String, _ bytes: Int64, _ lines: Int) {
        guard progress else { return }
        let now = clock.now
        if let lastDraw, lastDraw.duration(to: now) < .milliseconds(100) { return }
        lastDraw = now
        let width = 20
        let done = totalFiles > 0 ? filesDone * width / totalFiles : 0
        let bar = String(repeating: "=", count: done) + ">" + String(repeating: " ", count: max(0, width - done - 1))
        let name = path.split(separator: "/").last.map(String.init) ?? path
        FileHandleStderr.write("\r\u{1B}[K[\(bar)] \(filesDone + 1)/\(totalFiles) \(name)  \(bytes / 1_000_000) MB  \(lines) lines")
        drawn = true
    }

    /// Clears the progress line so messages and the summary start on a clean line.
    func endProgress() {
        guard drawn else { return }
        FileHandleStderr.write("\r\u{1B}[K")
        drawn = false
    }
}
