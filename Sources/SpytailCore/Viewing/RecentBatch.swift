/// The entries one batch (a block of the catch-up, a batch of the live loop) handed to viewers, stored together:
/// each entry's jsonl record and raw message side by side in one byte array, and a small fixed-size item per
/// entry. One batch costs two allocations however many entries it holds, where an array per entry cost
/// two allocations, two frees and their reference counting per exported line.
public final class RecentBatch: Sendable {
    public struct Item: Sendable {
        public let category: Int
        public let tags: TagSet
        /// The record (the `jsonl` format's, without its newline) in `bytes`.
        let record: Range<Int>
        /// The message as read, for view filters.
        let message: Range<Int>
    }

    let bytes: [UInt8]
    public let items: [Item]
    public var count: Int { items.count }

    init(bytes: [UInt8], items: [Item]) {
        self.bytes = bytes
        self.items = items
    }

    public func record(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].record] }
    public func message(_ index: Int) -> ArraySlice<UInt8> { bytes[items[index].message] }
}
