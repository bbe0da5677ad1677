/// Which open files give their descriptor back when `run` reaches `tail.maxOpenFiles`: drained (rotated-away)
/// files first, then the followed files quiet the longest, and a tenth of the limit more than needed, so
/// that the next few new files do not each make room again.
public enum DescriptorBudget {
    public struct OpenFile<Key: Hashable>: Equatable {
        public let key: Key
        public let isFollowed: Bool
        /// Uptime of its last read that got bytes (or of opening).
        public let lastGrowth: Duration

        public init(key: Key, isFollowed: Bool, lastGrowth: Duration) {
            self.key = key
            self.isFollowed = isFollowed
            self.lastGrowth = lastGrowth
        }
    }

    public enum Release<Key: Hashable>: Equatable {
        /// A drained file (rotated away): read what is left and retire it (descriptor closed, position kept; read
        /// again if it grows).
        case retire(Key)
        /// A followed file: close it, its position kept (parked); reopened on its next event.
        case park(Key)
    }

    /// How many files `run` keeps open: `configured` (`tail.maxOpenFiles`), but never so many that the process's
    /// own descriptor limit (`processLimit`, RLIMIT_NOFILE) leaves no room for the rest of what it opens — outputs,
    /// the checkpoint file, inotify, the HTTP face's and the network outputs' connections, a rotated copy read
    /// beside its live file: about ten at rest. An eighth of the limit, at least 64, is kept for those (with a
    /// limit of 64 or less, one file is kept open at a time): a file that cannot be opened for want of a descriptor
    /// is not read at all.
    public static func fileLimit(configured: Int, processLimit: Int) -> Int {
        let reserved = max(64, processLimit / 8)
        return max(1, min(configured, processLimit - reserved))
    }

    /// The files to release, in order, before one more is opened; none while fewer than `limit` are open.
    public static func releases<Key>(_ open: [OpenFile<Key>], limit: Int) -> [Release<Key>] {
        guard open.count >= limit else { return [] }
        let byAge = open.sorted { ($0.isFollowed ? 1 : 0, $0.lastGrowth) < ($1.isFollowed ? 1 : 0, $1.lastGrowth) }
        return byAge.prefix(max(1, open.count - limit + 1 + limit / 10)).map {
            $0.isFollowed ? .park($0.key) : .retire($0.key)
        }
    }
}
