import Glibc
import SpytailCore

/// What `run` does where inotify cannot help: without an inotify instance (fs.inotify.max_user_instances)
/// every file and the config are looked at every 2 s; a folder that could not be watched
/// (fs.inotify.max_user_watches) is looked at every 2 s and its watch tried again.
extension Tailer {
    func pollUnwatched() throws(SinkError) {
        let configFolder = Paths.parent(of: configFile.path)
        if watcher == nil || failedWatches.contains(configFolder), FileStamp(configFile.path) != configStamp {
            try reloadConfig()
        }
        guard state != .disabled else { return }
        if watcher == nil { return try reconcileEverything() }
        guard !failedWatches.isEmpty else { return }
        for directory in failedWatches {
            try reconcileDirectory(directory)
            if Syscall.stat(directory)?.isDirectory == true {  // try again; a failure comes back as an event
                failedWatches.remove(directory)
                watcher?.watch(directory)
            }
        }
        try catchUpUnseenRotations()  // copies that arrived in those folders told nobody
    }

    /// A watch failed: the folder is polled. Reported once, not at every retry.
    func reportWatchFailure(_ directory: String, _ errno: Errno) {
        failedWatches.insert(directory)
        guard reportedWatchFailures.insert(directory).inserted else { return }
        report(.watchFailed(directory: directory, error: "\(errno)", limitReached: errno.rawValue == ENOSPC,
                            pollSeconds: settings.pollInterval.components.seconds))
    }
}
