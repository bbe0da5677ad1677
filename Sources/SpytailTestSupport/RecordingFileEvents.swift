import SpytailIO

/// A `FileEvents` spy: records every call with its arguments, and lets a test deliver events as inotify would.
public final class RecordingFileEvents: FileEvents, @unchecked Sendable {
    private struct Calls {
        var watched: [String] = []
        var unwatched: [String] = []
        var startCount = 0
        var stopCount = 0
        var deliver: (@Sendable (WatchEvent) -> Void)?
    }

    private let calls = Locked(Calls())
    /// What `watch` answers for a directory (default: true).
    public let watchResult: @Sendable (String) -> Bool

    public init(watchResult: @escaping @Sendable (String) -> Bool = { _ in true }) { self.watchResult = watchResult }

    /// The factory to give the tailer: this spy, wired to the tailer's inbox.
    public var factory: FileEventsFactory {
        { deliver in
            self.calls.withLock { $0.deliver = deliver }
            return self
        }
    }

    public func watch(_ directory: String) -> Bool {
        calls.withLock { $0.watched.append(directory) }
        return watchResult(directory)
    }

    public func unwatch(_ directory: String) { calls.withLock { $0.unwatched.append(directory) } }
    public func start() { calls.withLock { $0.startCount += 1 } }
    public func stop(waiting: Bool) { calls.withLock { $0.stopCount += 1 } }

    /// Delivers `event` to the tailer, as inotify's thread would.
    public func deliver(_ event: WatchEvent) { calls.withLock { $0.deliver }?(event) }

    public var watchedDirectories: [String] { calls.withLock { $0.watched } }
    public var unwatchedDirectories: [String] { calls.withLock { $0.unwatched } }
    public var startCount: Int { calls.withLock { $0.startCount } }
    public var stopCount: Int { calls.withLock { $0.stopCount } }
    /// Directories watched now (watched minus unwatched, counting repeats).
    public var currentlyWatched: Set<String> {
        calls.withLock { calls in
            var counts: [String: Int] = [:]
            for d in calls.watched { counts[d, default: 0] += 1 }
            for d in calls.unwatched { counts[d, default: 0] -= 1 }
            return Set(counts.filter { $0.value > 0 }.keys)
        }
    }
}
