/// The entries one batch (a block of the catch-up, a batch of the live loop) handed to viewers, stored together:
/// each entry's jsonl record and raw message side by side in one byte array, and a small fixed-size item per
/// entry. One batch costs two allocations however many entries it holds, where an array per entry cost
/// two allocations, two frees and their reference counting per exported line.
public final class RecentBatch: Sendable {
    public struct Item: Sendable {
        public let category: Int
        public let tags: TagSet
        /// Index into `CompiledConfig.sources` (`SourceFile.unnamed` for a file no source named).
        public let source: Int
        /// The record (the `jsonl` format's, without its newline) in `bytes`.
        public let record: Range<Int>
        /// The message as read, for view filters.
        public let message: Range<Int>
    }

    let bytes: [UInt8]
    public let items: [Item]
    /// The names of the sources of the config the entries were read under, by `Item.source`: a viewer's filter,
    /// compiled against the config of its request, matches a source by name (a reload may reorder sources).
    public let sourceNames: [String]
    public var count: Int { items.count }

    init(bytes: [UInt8], items: [Item], sourceNames: [String] = []) {
        self.bytes = bytes
        self.items = items
        self.sourceNames = sourceNames
    }

    public func record(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].record] }

    /// The batch's bytes (records and messages at the items' ranges), without a reference count per entry:
    /// viewers on several threads read the same batches.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }
    public func message(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].message] }
}
