import Glibc
import SpytailCore

/// One batch of the loop's events, sorted out before anything is done: the controls to carry out in the
/// order they came, whether the run stops (a SIGTERM or SIGINT: nothing after it counts) or reloads its
/// config, and what to look at: every file after an overflow, else the folders that changed, the files
/// that only grew, and the names that arrived (a rotated copy's content may need catching up). inotify's
/// events are hints; the looks decide.
struct EventBatch {
    /// What is carried out at once, in order.
    enum Control: Equatable {
        case toggleRecording
        case enter(SpyState)
        /// A network output acknowledged records: a paused reading may resume now.
        case acknowledged
        case report(RunProblem)
        case watchRefused(directory: String, Errno)
        /// A folder appeared or went: the watched set is worked out again.
        case rewatch
    }

    var controls: [Control] = []
    var stops = false
    var reload = false
    /// inotify's queue overflowed: everything is looked at.
    var everything = false
    var directories = Set<String>()
    /// Files that only grew, outside the folders looked at anyway.
    var grown = Set<String>()
    var arrived = Set<String>()
    /// Folders watched from now on: what they came to hold before was never told (rotated copies included).
    var watched = Set<String>()

    /// Sorts `events` out; a change of the file at `configPath` is a reload.
    init(_ events: [RunEvent], configPath: String) {
        let configFolder = Paths.parent(of: configPath), configName = Paths.baseName(of: configPath)
        for event in events {
            switch event {
            case .signal(SIGTERM), .signal(SIGINT):
                stops = true
                return
            case .signal(SIGHUP), .request(.reload):
                reload = true
            case .signal(SIGUSR1):
                controls.append(.toggleRecording)
            case .request(.setState(let state)):
                controls.append(.enter(state))
            case .delivery(.acknowledged):
                controls.append(.acknowledged)
            case .delivery(.problem(let problem)):
                controls.append(.report(problem))
            case .signal, .clockAdvanced:
                break  // timers are looked at after every batch
            case .watch(.overflow):
                everything = true
            case .watch(.watchFailed(let directory, let errno)):
                controls.append(.watchRefused(directory: directory, errno))
            case .watch(.watching(let directory)):
                // Files and folders made there before the watch was in place were never told.
                rewatchOnce()
                directories.insert(directory)
                watched.insert(directory)
            case .watch(.changed(let directory, let name, let kind)):
                note(directory, name, kind, isConfig: directory == configFolder && name == configName)
            }
        }
        grown = grown.filter { !directories.contains(Paths.parent(of: $0)) }
    }

    /// One look at the watched set per batch is enough, whatever asked for it.
    private mutating func rewatchOnce() {
        if !controls.contains(.rewatch) { controls.append(.rewatch) }
    }

    private mutating func note(_ directory: String, _ name: String?, _ kind: WatchEvent.Kind, isConfig: Bool) {
        if isConfig {
            reload = true
        } else if kind == .modified, let name {
            grown.insert(Paths.join(directory, name))
        } else {
            if kind == .directoryCreated || kind == .directoryGone { rewatchOnce() }
            if kind == .arrived, let name { arrived.insert(Paths.join(directory, name)) }
            directories.insert(directory)
        }
    }
}
