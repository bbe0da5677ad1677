import Glibc
import SpytailCore

/// What `run` does where inotify cannot help: without an inotify instance (fs.inotify.max_user_instances)
/// every file and the config are looked at every 2 s; a folder that could not be watched
/// (fs.inotify.max_user_watches) is looked at every 2 s and its watch tried again.
extension Tailer {
    func pollUnwatched() throws(SinkError) {
        let configFolder = Paths.parent(of: configFile.path)
        if watches.watcher == nil || watches.failed.contains(configFolder), FileStamp(configFile.path) != configStamp {
            try reloadConfig()
        }
        if watches.watcher == nil { return try reconcileEverything() }
        guard state != .disabled else { return }
        guard !watches.failed.isEmpty else { return }
        // Each refused folder is looked at; one that exists is watched again (a failure comes back as an event).
        for directory in watches.retryRefused(exists: { Syscall.stat($0)?.isDirectory == true }) {
            try reconcileDirectory(directory)
        }
        try catchUpUnseenRotations()  // copies that arrived in those folders told nobody
    }

    /// A watch failed: the folder is polled. Reported once, not at every retry.
    func reportWatchFailure(_ directory: String, _ errno: Errno) {
        guard watches.refused(directory) else { return }
        report(.watchFailed(directory: directory, error: "\(errno)", limitReached: errno.rawValue == ENOSPC,
                            pollSeconds: settings.pollInterval.components.seconds))
    }
}
