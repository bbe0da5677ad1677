/// What wakes the run loop: file events, signals, and a stepped clock that moved (timers may be due).
public enum RunEvent: Sendable {
    case watch(WatchEvent)
    case signal(Int32)
    case clockAdvanced
    /// An observer's request (the HTTP face: `/api/state`, `/api/reload`).
    case request(RunRequest)
    /// A network output's acknowledgements or delivery problems.
    case delivery(DeliveryNotice)
}

extension RunEvent {
    /// A file or folder changed (what export latency is measured from).
    var isFileEvent: Bool {
        if case .watch = self { return true }
        return false
    }

    var isAcknowledgement: Bool {
        if case .delivery(.acknowledged) = self { return true }
        return false
    }
}
