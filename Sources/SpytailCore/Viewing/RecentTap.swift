/// Copies the entries a pipeline lets through as `RecentEntry` values for viewers (the HTTP face), keeping
/// only the newest `capacity` until they are taken. Owned by one pipeline, used from its thread.
public final class RecentTap {
    public let capacity: Int
    private let formatter: JSONLinesFormatter
    private let scratch = OutputBuffer(capacity: 4096)
    private var pending: [RecentEntry] = []
    /// Entries dropped here because more than `capacity` came before a `take()`.
    public private(set) var dropped = 0

    public init(vocabulary: Vocabulary, capacity: Int) {
        self.capacity = max(1, capacity)
        formatter = JSONLinesFormatter(vocabulary: vocabulary)
    }

    public func observe(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) {
        scratch.removeAll()
        formatter.format(entry, text: text, into: scratch)
        let record = scratch.count > 0 && scratch.bytes[scratch.count - 1] == 0x0A
            ? Array(UnsafeBufferPointer(rebasing: scratch.bytes[..<(scratch.count - 1)])) : scratch.array
        pending.append(RecentEntry(category: entry.category, tags: entry.tags,
                                   message: Array(UnsafeBufferPointer(rebasing: text[entry.message])), record: record))
        if pending.count >= 2 * capacity {
            dropped += pending.count - capacity
            pending.removeFirst(pending.count - capacity)
        }
    }

    /// The entries observed since the last take, oldest first (at most `capacity`), and how many older
    /// ones were dropped; both reset.
    public func take() -> (entries: [RecentEntry], dropped: Int) {
        if pending.count > capacity {
            dropped += pending.count - capacity
            pending.removeFirst(pending.count - capacity)
        }
        defer { pending = []; dropped = 0 }
        return (pending, dropped)
    }
}
