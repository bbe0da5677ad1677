import CInotifyTools
import Glibc
import Synchronization

/// The process's one inotify watcher, through libinotifytools (which keeps process-wide state, so there
/// is exactly one of these per process). Folders are watched, not files, so new files are seen.
///
/// Events are read on a thread of its own: `inotifytools_next_events` with a timeout of 0 or -1 was seen
/// to block forever, while whole-second timeouts work, so the thread waits 1 s at a time and checks
/// whether it should stop. Buffered events come back at once. Every libinotifytools call happens on that
/// thread, except the watches added before `start()`; later changes are queued and applied within 1 s.
public final class InotifyWatcher: @unchecked Sendable {
    private enum Command { case watch(String), unwatch(String) }

    private static let instances = Atomic<Int>(0)
    private let deliver: @Sendable (WatchEvent) -> Void
    private let commands = Locked<[Command]>([])
    private let stopping = Atomic<Bool>(false)
    private var thread: WorkerThreads?

    static let mask = UInt32(IN_CREATE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB
                             | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Starts inotify. Fails when the per-user instance limit (fs.inotify.max_user_instances) is reached.
    public init(deliver: @escaping @Sendable (WatchEvent) -> Void) throws(Errno) {
        precondition(Self.instances.add(1, ordering: .relaxed).newValue == 1, "libinotifytools allows one watcher per process")
        guard inotifytools_initialize() != 0 else { throw Errno(inotifytools_error()) }
        self.deliver = deliver
    }

    /// Watches `directory` now (before `start()`), or soon after (within 1 s) once started, then delivers
    /// `.watching`: what the folder came to hold before is then looked at. Returns false when it could not be
    /// watched (reported as `.watchFailed` too).
    @discardableResult
    public func watch(_ directory: String) -> Bool {
        guard thread == nil else {
            commands.withLock { $0.append(.watch(directory)) }
            return true
        }
        return addWatch(directory)
    }

    public func unwatch(_ directory: String) {
        guard thread == nil else {
            commands.withLock { $0.append(.unwatch(directory)) }
            return
        }
        inotifytools_remove_watch_by_filename(directory)
    }

    /// Starts reading events on the watcher's thread.
    public func start() {
        thread = WorkerThreads(count: 1) { [self] _ in loop() }
    }

    /// Stops the thread: it notices within 1 s (libinotifytools waits in whole seconds and offers no way
    /// to wake it). `waiting` joins it; a process on its way out need not wait, so SIGTERM exits at once.
    public func stop(waiting: Bool) {
        stopping.store(true, ordering: .relaxed)
        if waiting { thread?.join() } else { thread?.detach() }
        thread = nil
    }

    private func loop() {
        while !stopping.load(ordering: .relaxed) {
            for command in commands.withLock({ queued in defer { queued.removeAll() }; return queued }) {
                switch command {
                case .watch(let directory): if addWatch(directory) { deliver(.watching(directory: directory)) }
                case .unwatch(let directory): inotifytools_remove_watch_by_filename(directory)
                }
            }
            guard let event = inotifytools_next_events(1, 1) else { continue }
            translate(event).map(deliver)
        }
    }

    @discardableResult
    private func addWatch(_ directory: String) -> Bool {
        if inotifytools_watch_file(directory, Int32(bitPattern: Self.mask)) != 0 { return true }
        deliver(.watchFailed(directory: directory, Errno(inotifytools_error())))
        return false
    }

    private func translate(_ event: UnsafeMutablePointer<inotify_event>) -> WatchEvent? {
        let mask = event.pointee.mask
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflow }
        guard let watched = inotifytools_filename_from_wd(event.pointee.wd) else { return nil }
        var directory = String(cString: watched)
        if directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        var name: String?
        if event.pointee.len > 0 {
            let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
            name = String(cString: raw.assumingMemoryBound(to: CChar.self))
        }
        let kind: WatchEvent.Kind
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            kind = .directoryGone
        } else if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            kind = .directoryCreated
        } else if mask & UInt32(IN_MODIFY) != 0 {
            kind = .modified
        } else if mask & UInt32(IN_IGNORED) != 0 {
            return nil
        } else if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
            kind = .arrived
        } else {
            kind = .entries
        }
        return .changed(directory: directory, name: name, kind: kind)
    }
}
