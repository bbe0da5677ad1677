import Synchronization
import SpytailCore

/// The newest exported entries, numbered, for viewers: `/api/entries` reads a window of them and every
/// `/api/stream` viewer reads on from the number it saw last. The run loop only appends under a short lock
/// and nudges viewers without waiting; a viewer that falls more than `capacity` behind learns how many it
/// missed instead of slowing anything down.
public final class RecentEntries: Sendable {
    /// A batch and the numbers of its entries.
    private struct Held {
        let first: UInt64
        let end: UInt64
        /// nil once all its entries are older than the newest `capacity`: the memory goes at once, the slot
        /// at the next compaction.
        var batch: RecentBatch?

        init(first: UInt64, batch: RecentBatch) {
            self.first = first
            end = first + UInt64(batch.count)
            self.batch = batch
        }
    }

    private struct Ring {
        /// Oldest first, from `head` on (the ones before are gone; compacted now and then).
        var held: [Held] = []
        var head = 0
        /// Number the next entry gets (the first is 1).
        var next: UInt64 = 1
        var viewers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextViewer = 0
    }

    public let capacity: Int
    private let ring: Locked<Ring>
    /// `ring.next - 1`, published after each append: viewers poll it between writes without taking the lock
    /// (a release store after the entries are in, an acquire load before they are read under the lock).
    private let newestNumber = Atomic<UInt64>(0)

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Locked(Ring())
    }

    /// Appends `batch` (oldest first) after `dropped` entries that never made it here; wakes every viewer.
    public func append(_ batch: RecentBatch?, dropped: Int = 0) {
        guard batch != nil || dropped > 0 else { return }
        let capacity = UInt64(self.capacity)
        let wake = ring.withLock { ring -> [AsyncStream<Void>.Continuation] in
            ring.next += UInt64(dropped)
            if let batch, batch.count > 0 {
                ring.held.append(Held(first: ring.next, batch: batch))
                ring.next += UInt64(batch.count)
            }
            newestNumber.store(ring.next - 1, ordering: .releasing)
            // Batches wholly older than the newest `capacity` entries go.
            let oldest = ring.next > capacity ? ring.next - capacity : 1
            while ring.head < ring.held.count && ring.held[ring.head].end <= oldest {
                ring.held[ring.head].batch = nil
                ring.head += 1
            }
            if ring.head > 0 && ring.head * 2 >= ring.held.count {  // amortized O(1): the slots of batches freed above
                ring.held.removeFirst(ring.head)
                ring.head = 0
            }
            return Array(ring.viewers.values)
        }
        for viewer in wake { viewer.yield() }
    }

    /// Number of the newest entry (0: none yet).
    public var newest: UInt64 { newestNumber.load(ordering: .acquiring) }

    /// Entries numbered after `seen`, oldest first, at most `limit`, as runs of their batches (one reference
    /// per batch, not per entry); `missed` counts those after `seen` that are no longer held. Returns the number
    /// of the last entry returned (or skipped) as `through`.
    public func window(after seen: UInt64, limit: Int) -> (segments: [RecentSegment], missed: UInt64, through: UInt64) {
        ring.withLock { ring in
            let start = max(seen + 1, oldestHeld(ring))
            let end = min(ring.next, start + UInt64(max(0, limit)))
            return (segments(ring, from: start, to: end), start - (seen + 1), end - 1)
        }
    }

    /// `window(after:limit:)` one entry at a time.
    public func entries(after seen: UInt64, limit: Int) -> (entries: [RecentEntry], missed: UInt64, through: UInt64) {
        let window = self.window(after: seen, limit: limit)
        return (window.segments.flatMap(\.entries), window.missed, window.through)
    }

    /// The newest `limit` entries, oldest first, and the number of the newest (a stream resumes after it).
    public func newest(_ limit: Int) -> (entries: [RecentEntry], through: UInt64) {
        ring.withLock { ring in
            let start = max(ring.next > UInt64(limit) ? ring.next - UInt64(limit) : 1, oldestHeld(ring))
            return (segments(ring, from: start, to: ring.next).flatMap(\.entries), ring.next - 1)
        }
    }

    private func oldestHeld(_ ring: Ring) -> UInt64 {
        ring.next > UInt64(capacity) ? ring.next - UInt64(capacity) : 1
    }

    /// The entries numbered `start..<end` that are held (numbers of dropped entries have none).
    private func segments(_ ring: Ring, from start: UInt64, to end: UInt64) -> [RecentSegment] {
        guard start < end else { return [] }
        return ring.held[ring.head...].filter { $0.end > start && $0.first < end }.compactMap { held in
            held.batch.map {
                RecentSegment(batch: $0, indices: Int(max(start, held.first) - held.first)..<Int(min(end, held.end) - held.first))
            }
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

/// A run of consecutive entries of one batch.
public struct RecentSegment: Sendable {
    public let batch: RecentBatch
    public let indices: Range<Int>
    public var entries: [RecentEntry] { indices.map { RecentEntry(batch: batch, index: $0) } }
}
