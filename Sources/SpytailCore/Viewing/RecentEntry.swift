/// An exported entry as a viewer sees it: its jsonl record, and what the view filters look at. A view into
/// the `RecentBatch` that holds it.
public struct RecentEntry: Sendable {
    public let batch: RecentBatch
    public let index: Int

    public init(batch: RecentBatch, index: Int) {
        self.batch = batch
        self.index = index
    }

    /// The entry's category index (the config's vocabulary).
    public var category: Int { batch.items[index].category }
    public var tags: TagSet { batch.items[index].tags }
    /// The message bytes (the text `contains`, `prefix` and a search look at).
    public var message: ArraySlice<UInt8> { batch.message(index) }
    /// The same record as the `jsonl` format writes, without its newline.
    public var record: ArraySlice<UInt8> { batch.record(index) }
}
