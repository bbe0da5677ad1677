import Synchronization
import SpytailCore

/// The newest exported entries, numbered, for viewers: `/api/entries` reads a window of them and every
/// `/api/stream` viewer reads on from the number it saw last. The run loop only appends under a short lock
/// and nudges viewers without waiting; a viewer that falls more than `capacity` behind learns how many it
/// missed instead of slowing anything down.
public final class RecentEntries: Sendable {
    private struct Ring {
        var entries: [RecentEntry?]
        /// Number the next entry gets (the first is 1).
        var next: UInt64 = 1
        var viewers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextViewer = 0
    }

    public let capacity: Int
    private let ring: Mutex<Ring>

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Mutex(Ring(entries: Array(repeating: nil, count: max(1, capacity))))
    }

    /// Appends `entries` (oldest first) after `dropped` that never made it here; wakes every viewer.
    public func append(_ entries: [RecentEntry], dropped: Int = 0) {
        guard !entries.isEmpty || dropped > 0 else { return }
        let wake = ring.withLock { ring -> [AsyncStream<Void>.Continuation] in
            ring.next += UInt64(dropped + max(0, entries.count - capacity))
            for entry in entries.suffix(capacity) {
                ring.entries[Int(ring.next % UInt64(capacity))] = entry
                ring.next += 1
            }
            return Array(ring.viewers.values)
        }
        for viewer in wake { viewer.yield() }
    }

    /// Number of the newest entry (0: none yet).
    public var newest: UInt64 { ring.withLock { $0.next - 1 } }

    /// Entries numbered after `seen`, oldest first, at most `limit`; `missed` counts those after `seen` that
    /// are no longer held. Returns the number of the last entry returned (or skipped) as `through`.
    public func entries(after seen: UInt64, limit: Int) -> (entries: [RecentEntry], missed: UInt64, through: UInt64) {
        ring.withLock { ring in
            let oldestHeld = ring.next > UInt64(capacity) ? ring.next - UInt64(capacity) : 1
            let start = max(seen + 1, oldestHeld)
            let missed = start - (seen + 1)
            let end = min(ring.next, start + UInt64(max(0, limit)))
            var out: [RecentEntry] = []
            out.reserveCapacity(Int(end - start))
            var number = start
            while number < end {
                if let entry = ring.entries[Int(number % UInt64(capacity))] { out.append(entry) }
                number += 1
            }
            return (out, missed, end - 1)
        }
    }

    /// The newest `limit` entries, oldest first, and the number of the newest (a stream resumes after it).
    public func newest(_ limit: Int) -> (entries: [RecentEntry], through: UInt64) {
        ring.withLock { ring in
            let newest = ring.next - 1
            let from = max(newest > UInt64(limit) ? newest - UInt64(limit) : 0,
                           ring.next > UInt64(capacity) ? ring.next - UInt64(capacity) - 1 : 0)
            var out: [RecentEntry] = []
            out.reserveCapacity(Int(newest - from))
            for number in (from + 1)..<(newest + 1) {
                if let entry = ring.entries[Int(number % UInt64(capacity))] { out.append(entry) }
            }
            return (out, newest)
        }
    }

    /// A stream that yields whenever entries arrive (coalesced: one wake-up for many); ends with `leave`.
    public func join() -> (id: Int, wakeUps: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = ring.withLock { ring in
            ring.nextViewer += 1
            ring.viewers[ring.nextViewer] = continuation
            return ring.nextViewer
        }
        return (id, stream)
    }

    public func leave(_ id: Int) {
        ring.withLock { $0.viewers.removeValue(forKey: id) }?.finish()
    }

    /// Wakes every viewer without new entries (a state change to tell).
    public func nudge() {
        for viewer in ring.withLock({ Array($0.viewers.values) }) { viewer.yield() }
    }
}
