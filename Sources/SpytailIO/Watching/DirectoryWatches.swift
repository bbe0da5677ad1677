import SpytailCore

/// The folders `run` watches, and why: the sources' folders and the config's (`wanted`), folders watched
/// only while a rotated-away file sits there (counted, one hold per file), and folders inotify refused
/// (looked at every poll interval instead, each refusal said once). Without a watcher at all everything is
/// polled. The tailer asks it what to watch and when to poll; it talks to `FileEvents`, nothing else.
struct DirectoryWatches {
    /// The file-event source, or nil when inotify could not start (everything is polled then).
    let watcher: (any FileEvents)?
    /// The folders the sources and the config need.
    private(set) var wanted: Set<String> = []
    /// Folders that followed symlinks point into, each with the live paths (the symlinks) that point there.
    private(set) var links: [String: Set<String>] = [:]
    /// Folders held for drained or retired files outside `wanted`, with how many files hold each.
    private var holds: [String: Int] = [:]
    /// Folders a watch failed on, looked at every poll instead and tried again.
    private(set) var failed: Set<String> = []
    private var failuresSaid: Set<String> = []
    /// When the last poll ran (uptime).
    private var lastPoll: Duration = .zero

    init(watcher: (any FileEvents)?) { self.watcher = watcher }

    /// Whether anything is looked at by polling: no watcher, or a folder it refused.
    var polls: Bool { watcher == nil || !failed.isEmpty }

    /// Whether `directory` is watched for the sources or the config (a hold does not count).
    func isWanted(_ directory: String) -> Bool { wanted.contains(directory) }

    /// Watches exactly `directories` for the sources and the config, and the folders of `links` (where live
    /// symlinks point): new ones added, old ones dropped unless a drained file still holds them.
    mutating func want(_ directories: Set<String>, links: [String: Set<String>] = [:]) {
        let directories = directories.union(links.keys)
        for directory in directories.subtracting(wanted) where holds[directory] == nil {
            if watcher?.watch(directory) == false { failed.insert(directory) }
        }
        for directory in wanted.subtracting(directories) where holds[directory] == nil { watcher?.unwatch(directory) }
        wanted = directories
        self.links = links
    }

    /// The live symlinks that point into `directory`.
    func linksInto(_ directory: String) -> Set<String> { links[directory] ?? [] }

    /// Whether `path`, a live symlink, points into a folder watched for it.
    func isLinked(_ path: String) -> Bool { links.values.contains { $0.contains(path) } }

    /// A drained file sits in `directory`: watched until its last holder lets go.
    mutating func hold(_ directory: String) {
        holds[directory, default: 0] += 1
        if holds[directory] == 1, !wanted.contains(directory) { _ = watcher?.watch(directory) }
    }

    /// A drained file left `directory` (or was forgotten).
    mutating func release(_ directory: String) {
        guard let count = holds[directory] else { return }
        if count > 1 { holds[directory] = count - 1; return }
        holds[directory] = nil
        if !wanted.contains(directory) { watcher?.unwatch(directory) }
    }

    /// The watcher refused `directory` (now or in an event): it is polled. True the first time for that
    /// folder, so the refusal is said once, not at every retry.
    mutating func refused(_ directory: String) -> Bool {
        failed.insert(directory)
        return failuresSaid.insert(directory).inserted
    }

    /// When the next poll is due, if anything is polled.
    func nextPoll(every interval: Duration) -> Duration? { polls ? lastPoll + interval : nil }

    /// True (and the poll clock restarted) when a poll is due at `now`.
    mutating func pollDue(at now: Duration, every interval: Duration) -> Bool {
        guard polls, now - lastPoll >= interval else { return false }
        lastPoll = now
        return true
    }

    /// The refused folders that exist now are tried again (a new refusal comes back as an event);
    /// returns every refused folder, to be looked at by hand this time.
    mutating func retryRefused(exists: (String) -> Bool) -> [String] {
        let refused = failed.sorted()
        for directory in refused where exists(directory) {
            failed.remove(directory)
            _ = watcher?.watch(directory)
        }
        return refused
    }
}
