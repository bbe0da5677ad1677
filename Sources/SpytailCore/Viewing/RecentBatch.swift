/// The entries one batch (a block of the catch-up, a batch of the live loop) handed to viewers, stored together:
/// each entry's jsonl record and raw message side by side in one byte array, and a small fixed-size item per
/// entry. One batch costs two allocations however many entries it holds, where an array per entry cost
/// two allocations, two frees and their reference counting per exported line.
public final class RecentBatch: Sendable {
    /// 32 bytes: four 32-bit offsets into `bytes`, where ranges of `Int`s took 56 (a batch holds well under
    /// 4 GiB; a block's entries are a few hundred KB).
    public struct Item: Sendable {
        public let tags: TagSet
        private let categoryIndex: Int32
        private let sourceIndex: Int32
        private let recordStart: UInt32, recordEnd: UInt32
        private let messageStart: UInt32, messageEnd: UInt32

        public init(category: Int, tags: TagSet, source: Int, record: Range<Int>, message: Range<Int>) {
            self.tags = tags
            categoryIndex = Int32(truncatingIfNeeded: category)
            sourceIndex = Int32(truncatingIfNeeded: source)
            recordStart = UInt32(record.lowerBound)
            recordEnd = UInt32(record.upperBound)
            messageStart = UInt32(message.lowerBound)
            messageEnd = UInt32(message.upperBound)
        }

        /// Index into `names.categories`.
        public var category: Int { Int(categoryIndex) }
        /// Index into `names.sources` (`SourceFile.unnamed` for a file no source named).
        public var source: Int { Int(sourceIndex) }
        /// The record (the `jsonl` format's, without its newline) in `bytes`.
        public var record: Range<Int> { Int(recordStart)..<Int(recordEnd) }
        /// The message as read, for view filters: inside the record when JSON wrote it as it is (most
        /// messages), else a copy of its own after the record.
        public var message: Range<Int> { Int(messageStart)..<Int(messageEnd) }

        /// The same item for bytes moved `by` to the front.
        func shifted(by cut: Int) -> Item {
            Item(category: category, tags: tags, source: source, record: (record.lowerBound - cut)..<(record.upperBound - cut),
                 message: (message.lowerBound - cut)..<(message.upperBound - cut))
        }
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
