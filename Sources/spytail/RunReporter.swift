import Logging
import SpytailIO

/// Logs what `run` does: problems always, the life of each file with --verbose.
final class RunReporter: EventReporter {
    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func report(_ event: SpytailEvent) {
        switch event {
        case .readFailed(let error): logger.error("\(error)")
        case .problem(let problem): logger.warning("\(problem)")
        case .gap(let path, let bytes, let reason):
            logger.warning("\(path): gap of \(bytes.map { "\($0) bytes" } ?? "an unknown number of bytes") (\(reason)); reported as a gap record")
        case .truncated(let path): logger.warning("\(path): truncated (copytruncate?)")
        case .configRejected(let message): logger.error("config change refused, the running config stays:\n\(message)")
        case .configReloaded(let path): logger.notice("\(path): config reloaded")
        case .configUnchanged(let path): logger.notice("\(path): config unchanged; nothing to reload")
        case .stateChanged(let state): logger.notice("state: \(state.rawValue)")
        case .following(let path, let offset): logger.info("\(path): following from offset \(offset)")
        case .rotated(let path): logger.info("\(path): rotated; draining the old file")
        case .closed(let path, let reason): logger.info("\(path): closed (\(reason))")
        case .fileStarted, .fileFinished, .progress: break
        }
    }
}
