/// Copies the entries a pipeline lets through for viewers (the HTTP face) into a `RecentBatch`, keeping only
/// the newest `capacity` until they are taken. Owned by one pipeline, used from its thread.
public final class RecentTap {
    public let capacity: Int
    private let formatter: JSONLinesFormatter
    private let names: RecentNames
    private let scratch = OutputBuffer(capacity: 4096)
    private var bytes: [UInt8] = []
    private var items: [RecentBatch.Item] = []
    /// Entries dropped here because more than `capacity` came before a `take()`.
    public private(set) var dropped = 0

    public init(vocabulary: Vocabulary, capacity: Int) {
        self.capacity = max(1, capacity)
        formatter = JSONLinesFormatter(vocabulary: vocabulary)
        names = RecentNames(vocabulary)
    }

    /// Whether `formatter` writes the very bytes this tap keeps, so a record it wrote can be taken as it is.
    public func formatsLike(_ formatter: any EntryFormatter) -> Bool { (formatter as? JSONLinesFormatter) == self.formatter }

    public func observe(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) {
        scratch.removeAll()
        formatter.format(entry, text: text, into: scratch)
        observe(entry, text: text, record: scratch.bytes)
    }

    /// Keeps `entry` with `record`, the jsonl record an output formatted for it (see `formatsLike`): the
    /// bytes are copied, not formatted a second time.
    public func observe(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, record: UnsafeBufferPointer<UInt8>) {
        var length = record.count
        if length > 0 && record[length - 1] == 0x0A { length -= 1 }
        let start = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: record[..<length]))
        let messageStart = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[entry.message]))
        items.append(RecentBatch.Item(category: entry.category, tags: entry.tags, source: entry.file.source,
                                      record: start..<messageStart, message: messageStart..<bytes.count))
        if items.count >= 2 * capacity { keepNewest() }
    }

    /// The entries observed since the last take, oldest first (at most `capacity`; nil when none), and how
    /// many older ones were dropped; both reset.
    public func take() -> (batch: RecentBatch?, dropped: Int) {
        if items.count > capacity { keepNewest() }
        guard !items.isEmpty else {
            defer { dropped = 0 }
            return (nil, dropped)
        }
        let batch = RecentBatch(bytes: bytes, items: items, names: names)
        defer {
            // The next batch is likely the size of this one: one allocation, no regrowing.
            (bytes, items, dropped) = ([], [], 0)
            bytes.reserveCapacity(batch.bytes.count)
            items.reserveCapacity(batch.count)
        }
        return (batch, dropped)
    }

    /// Drops all but the newest `capacity` entries, moving their bytes to the front.
    private func keepNewest() {
        let extra = items.count - capacity
        guard extra > 0 else { return }
        dropped += extra
        let cut = items[extra].record.lowerBound
        bytes.removeFirst(cut)
        items = items[extra...].map {
            RecentBatch.Item(category: $0.category, tags: $0.tags, source: $0.source, record: ($0.record.lowerBound - cut)..<($0.record.upperBound - cut),
                             message: ($0.message.lowerBound - cut)..<($0.message.upperBound - cut))
        }
    }
}
