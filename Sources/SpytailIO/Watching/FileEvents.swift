/// Where `run` learns that files changed: inotify in production (`InotifyWatcher`), a recording spy in tests
/// (`RecordingFileEvents`). Events are hints delivered to the handler given at creation; every one ends in a
/// look at the files themselves.
public protocol FileEvents: AnyObject {
    /// Starts watching `directory`; false when it cannot be watched now (a `watchFailed` event may follow).
    @discardableResult func watch(_ directory: String) -> Bool
    func unwatch(_ directory: String)
    /// Begins delivering events.
    func start()
    /// Stops delivering; `waiting`: until the delivering thread has ended.
    func stop(waiting: Bool)
}

/// Makes the file events of a run, given where to deliver them; throws when none can be had (no inotify
/// instance left: the run then looks at files every `pollInterval`).
public typealias FileEventsFactory = (@escaping @Sendable (WatchEvent) -> Void) throws -> any FileEvents

extension InotifyWatcher: FileEvents {
    /// The production factory: one inotify watcher (libinotifytools allows one per process).
    public static func make(deliver: @escaping @Sendable (WatchEvent) -> Void) throws -> any FileEvents {
        try InotifyWatcher(deliver: deliver)
    }
}
