/// The entries one batch (a block of the catch-up, a batch of the live loop) handed to viewers, stored together:
/// each entry's jsonl record and raw message side by side in one byte array, and a small fixed-size item per
/// entry. One batch costs two allocations however many entries it holds, where an array per entry cost
/// two allocations, two frees and their reference counting per exported line.
public final class RecentBatch: Sendable {
    public struct Item: Sendable {
        /// Index into `names.categories`.
        public let category: Int
        public let tags: TagSet
        /// Index into `names.sources` (`SourceFile.unnamed` for a file no source named).
        public let source: Int
        /// The record (the `jsonl` format's, without its newline) in `bytes`.
        public let record: Range<Int>
        /// The message as read, for view filters.
        public let message: Range<Int>
    }

    let bytes: [UInt8]
    public let items: [Item]
    /// The names behind the items' category, tag and source indices (the config the entries were read under):
    /// a viewer's filter, compiled against the config of its request, matches them by name.
    public let names: RecentNames
    public var count: Int { items.count }

    init(bytes: [UInt8], items: [Item], names: RecentNames = .none) {
        self.bytes = bytes
        self.items = items
        self.names = names
    }

    public func record(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].record] }

    /// The batch's bytes (records and messages at the items' ranges), without a reference count per entry:
    /// viewers on several threads read the same batches.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }
    public func message(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].message] }
}
