/// What wakes the run loop: file events, signals, and a stepped clock that moved (timers may be due).
public enum RunEvent: Sendable {
    case watch(WatchEvent)
    case signal(Int32)
    case clockAdvanced
    /// An observer's request (the HTTP face: `/api/state`, `/api/reload`).
    case request(RunRequest)
}

extension RunEvent {
    /// A file or folder changed (what export latency is measured from).
    var isFileEvent: Bool {
        if case .watch = self { return true }
        return false
    }
}
