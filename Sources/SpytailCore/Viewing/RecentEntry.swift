/// An exported entry as a viewer sees it: its jsonl record, and what the view filters look at.
public struct RecentEntry: Sendable {
    /// The entry's category index (the config's vocabulary).
    public let category: Int
    public let tags: TagSet
    /// The message bytes (the text `contains`, `prefix` and a search look at).
    public let message: [UInt8]
    /// The same record as the `jsonl` format writes, without its newline.
    public let record: [UInt8]

    public init(category: Int, tags: TagSet, message: [UInt8], record: [UInt8]) {
        self.category = category
        self.tags = tags
        self.message = message
        self.record = record
    }
}
