/// What wakes the run loop: inotify's hints and signals.
public enum RunEvent: Sendable {
    case watch(WatchEvent)
    case signal(Int32)
}
