/// The config's filters in order; the first that matches an entry excludes it, and is counted.
public struct FilterChain {
    public let conditions: [EntryCondition]
    /// Entries excluded by each filter.
    public private(set) var excluded: [Int]

    public init(_ conditions: [EntryCondition]) {
        self.conditions = conditions
        excluded = Array(repeating: 0, count: conditions.count)
    }

    /// Whether some filter excludes `entry`.
    public mutating func excludes(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in conditions.indices where conditions[index].matches(entry, text: text) {
            excluded[index] += 1
            return true
        }
        return false
    }
}
