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
        /// A drained file: read what is left, emit what it holds back, close it.
        case drainAndClose(Key)
        /// A followed file: close it, its position kept (parked); reopened on its next event.
        case park(Key)
    }

    /// The files to release, in order, before one more is opened; none while fewer than `limit` are open.
    public static func releases<Key>(_ open: [OpenFile<Key>], limit: Int) -> [Release<Key>] {
        guard open.count >= limit else { return [] }
        let byAge = open.sorted { ($0.isFollowed ? 1 : 0, $0.lastGrowth) < ($1.isFollowed ? 1 : 0, $1.lastGrowth) }
        return byAge.prefix(max(1, open.count - limit + 1 + limit / 10)).map {
            $0.isFollowed ? .park($0.key) : .drainAndClose($0.key)
        }
    }
}
