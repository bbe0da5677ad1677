import Glibc

/// Copies the entries a pipeline lets through for viewers (the HTTP face) into a `RecentBatch`, keeping only
/// the newest `capacity` until they are taken. Owned by one pipeline, used from its thread.
public final class RecentTap {
    public let capacity: Int
    private let formatter: JSONLinesFormatter
    private let names: RecentNames
    private let scratch = OutputBuffer(capacity: 4096)
    private var bytes: [UInt8] = []
    private var items: [RecentBatch.Item] = []
    /// Bytes of room the tap holds for the next entries (what a burst may leave behind).
    var heldBytes: Int { bytes.capacity }
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
        let kept = UnsafeBufferPointer(rebasing: record[..<length])
        let message = UnsafeBufferPointer(rebasing: text[entry.message])
        let start = bytes.count
        bytes.append(contentsOf: kept)
        let messageRange: Range<Int>
        if let within = Self.verbatim(message, in: kept) {
            messageRange = (start + within.lowerBound)..<(start + within.upperBound)
        } else {
            bytes.append(contentsOf: message)
            messageRange = (start + kept.count)..<bytes.count
        }
        items.append(RecentBatch.Item(category: entry.category, tags: entry.tags, source: entry.file.source,
                                      record: start..<(start + kept.count), message: messageRange))
        if items.count >= 2 * capacity { keepNewest() }
    }

    /// `"message` as one little-endian word, and the `":"` after it.
    private static let messageWord = UInt64(littleEndian: Array(#""message"#.utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
    private static let keyLength = 11  // "message":"

    /// Where `record` holds `message` byte for byte as its `message` value (no byte of it needed escaping), so
    /// the entry needs no second copy. The first `"message":"` of a jsonl record is its key: inside a JSON
    /// string every quote is escaped. A message without a backslash whose bytes follow the key and are
    /// followed by a quote is the whole value: a quote inside the value would come after a backslash.
    static func verbatim(_ message: UnsafeBufferPointer<UInt8>, in record: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let key = messageKey(in: record),
              message.isEmpty || memchr(message.baseAddress!, 0x5C, message.count) == nil else { return nil }
        let start = key + keyLength
        let end = start + message.count
        guard end < record.count, record[end] == 0x22,
              message.isEmpty || memcmp(record.baseAddress! + start, message.baseAddress!, message.count) == 0 else { return nil }
        return start..<end
    }

    /// The offset of the first `"message":"` in `record`: each `m` (rare before the key: ids are hex, times
    /// digits) is checked as the second byte of one word.
    static func messageKey(in record: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = record.baseAddress, record.count > keyLength else { return nil }
        var from = 1
        while from <= record.count - keyLength + 1 {
            guard let hit = memchr(base + from, 0x6D, record.count - keyLength + 1 - from) else { return nil }
            let m = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            let key = m - 1
            if UnsafeRawPointer(base + key).loadUnaligned(as: UInt64.self) == messageWord,
               record[key + 8] == 0x22, record[key + 9] == 0x3A, record[key + 10] == 0x22 {
                return key
            }
            from = m + 1
        }
        return nil
    }

    /// The entries observed since the last take, oldest first (at most `capacity`; nil when none), and how
    /// many older ones were dropped; both reset. The batch is an exact-size copy (it may be held for a long
    /// time by the viewers' ring); the tap keeps its own buffers for the next entries.
    public func take() -> (batch: RecentBatch?, dropped: Int) {
        if items.count > capacity { keepNewest() }
        defer {
            // Room for the next batch is kept, unless a burst left far more than this batch used.
            if bytes.capacity > 4 * max(bytes.count, 64 * 1024) { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
            if items.capacity > 4 * max(items.count, 2048) { items = [] } else { items.removeAll(keepingCapacity: true) }
            dropped = 0
        }
        guard !items.isEmpty else { return (nil, dropped) }
        let batch = RecentBatch(bytes: bytes.withUnsafeBufferPointer { Array($0) }, items: items.withUnsafeBufferPointer { Array($0) },
                                names: names)
        return (batch, dropped)
    }

    /// Drops all but the newest `capacity` entries, moving their bytes to the front.
    private func keepNewest() {
        let extra = items.count - capacity
        guard extra > 0 else { return }
        dropped += extra
        let cut = items[extra].record.lowerBound
        bytes.removeFirst(cut)
        items = items[extra...].map { $0.shifted(by: cut) }
    }
}
