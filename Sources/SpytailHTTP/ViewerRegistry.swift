import SpytailIO

/// How many `/api/stream` viewers are connected (at most `limit`), and how many entries they missed.
final class ViewerRegistry: Sendable {
    private struct State {
        var active: [Int: Int] = [:]  // viewer number → its RecentEntries membership
        var next = 0
        var skipped = 0
        var closed = false
    }

    private let state: Locked<State>
    private let limitValue: Locked<Int>

    init(limit: Int) {
        state = Locked(State())
        limitValue = Locked(limit)
    }

    var limit: Int {
        get { limitValue.withLock { $0 } }
        set { limitValue.withLock { $0 = newValue } }
    }

    var count: Int { state.withLock { $0.active.count } }
    var skipped: Int { state.withLock { $0.skipped } }

    /// A place for one more viewer, or nil at the limit.
    func enter(_ recent: RecentEntries) -> (viewer: Int, membership: Int, wakeUps: AsyncStream<Void>)? {
        state.withLock { s -> (Int, Int, AsyncStream<Void>)? in
            guard !s.closed, s.active.count < self.limit else { return nil }
            let (membership, wakeUps) = recent.join()
            s.next += 1
            s.active[s.next] = membership
            return (s.next, membership, wakeUps)
        }
    }

    func leave(_ viewer: Int, _ recent: RecentEntries) {
        if let membership = state.withLock({ $0.active.removeValue(forKey: viewer) }) { recent.leave(membership) }
    }

    func skipped(_ count: Int) { state.withLock { $0.skipped += count } }

    func closeAll(_ recent: RecentEntries) {
        let memberships = state.withLock { s -> [Int] in
            s.closed = true
            defer { s.active = [:] }
            return Array(s.active.values)
        }
        for membership in memberships { recent.leave(membership) }
    }
}
