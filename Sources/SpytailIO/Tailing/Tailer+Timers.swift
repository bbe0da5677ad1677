import SpytailCore

/// The loop's timers: multiline idle flush, a rotated file's quiet check, checkpoint fsync, retrying a
/// stalled output, polling folders inotify does not watch, looking again at paths left for want of a
/// descriptor. They are deadlines of the loop's wait.
extension Tailer {
    /// Time until the next timer is due (nil: none); none at all when a pause ended inside a step that did not
    /// end a turn (start-up): the loop turns at once and looks at everything (`looksAgainAfterPause`).
    func nextTimeout() -> Duration? {
        if looksAgainAfterPause { return .zero }
        var deadlines = tracked.open.compactMap { $0.lifecycle.nextDeadline(settings: settings(for: $0), hasPendingEntry: $0.hasPendingEntry) }
        if let sync = checkpointer.nextSync(settings: settings) { deadlines.append(sync) }
        if let retry = condition.nextDeadline(settings: settings) { deadlines.append(retry) }
        if let poll = watches.nextPoll(every: settings.pollInterval) { deadlines.append(poll) }
        if let retry = descriptorRetryAt { deadlines.append(retry) }
        if telemetry != nil { deadlines.append(uptime + TelemetryPublisher.heartbeat) }  // `/healthz` sees the loop turn
        guard let next = deadlines.min() else { return nil }
        return max(.zero, next - uptime) + .milliseconds(1)
    }

    /// The run's settings with the file's own multiline idle timeout (its parser's).
    func settings(for file: TailedFile) -> RunSettings {
        var own = settings
        own.idleTimeout = file.idleTimeout
        return own
    }

    func onTimers() throws(SinkError) {
        if condition.isStalled {
            try retryStalledOutputs()
            if condition.isStalled { return }
        }
        guard !pipeline.isStalled else { return }
        let now = uptime
        for file in tracked.open {
            switch file.lifecycle.timer(now: now, settings: settings(for: file), hasPendingEntry: file.hasPendingEntry) {
            case .nothing: break
            case .flushPendingEntry:
                // The rest of the entry (continuation lines, a long line's last part) may be on disk with its
                // event still queued behind a busy loop: read first, and hand the entry out as it is only if
                // nothing came.
                if try read(file) == 0 { try file.flushPendingEntry(emit) }
            case .checkQuiet:
                // Quiet only counts when it really stopped growing (its folder may be one nobody watches).
                let bytes = try read(file)
                if file.lifecycle.quietAfterReading(bytes, at: now) { try retire(file) }
            }
        }
        if watches.pollDue(at: now, every: settings.pollInterval) { try pollUnwatched() }
        try retryAwaitingDescriptors(now: now)
    }
}
