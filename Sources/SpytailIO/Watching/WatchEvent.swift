/// What inotify said, as a Sendable value for the run loop: a hint that something changed in a folder.
public enum WatchEvent: Sendable, Equatable {
    /// Something happened to `name` in `directory` (nil name: the folder itself).
    case changed(directory: String, name: String?, kind: Kind)
    /// The kernel's event queue overflowed: events were lost, everything must be looked at again.
    case overflow
    /// A folder could not be watched.
    case watchFailed(directory: String, Errno)
    /// A folder is watched from now on (a watch added while running): what it came to hold before was never
    /// told, and sub-folders made meanwhile may need watches too.
    case watching(directory: String)

    /// The events the run loop distinguishes.
    public enum Kind: Sendable, Equatable {
        /// Data was written (IN_MODIFY): only that file needs a look.
        case modified
        /// Created, deleted, attributes changed: the folder needs a look.
        case entries
        /// Closed after writing, or moved in: the folder needs a look, and this file's content is complete
        /// enough to be looked at (a rotated copy whose content was never seen is caught up).
        case arrived
        /// A sub-folder appeared (a `**` pattern may need to watch it).
        case directoryCreated
        /// The watched folder itself was deleted or moved.
        case directoryGone
    }
}
