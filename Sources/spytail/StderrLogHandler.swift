import Logging

/// swift-log handler for a command-line tool: `spytail: warning: message` on standard error.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level = event.level == .notice ? "" : "\(event.level): "
        FileHandleStderr.write("spytail: \(level)\(event.message)\n")
    }
}
