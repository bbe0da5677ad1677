/// The config's filters in order; the first that matches an entry excludes it, and is counted.
public struct FilterChain {
    public let conditions: [EntryCondition]
    private let probes: [ConditionProbe]
    /// Entries excluded by each filter.
    public private(set) var excluded: [Int]

    public init(_ conditions: [EntryCondition]) {
        self.conditions = conditions
        probes = conditions.map { ConditionProbe($0) }
        excluded = Array(repeating: 0, count: conditions.count)
    }

    /// Whether some filter excludes `entry`.
    public mutating func excludes(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        let hit: Int? = probes.withUnsafeBufferPointer { probes in
            entry.fields.withUnsafeBufferPointer { ConditionProbe.firstMatch(probes, entry, text: text, fields: $0) }
        }
        guard let hit else { return false }
        excluded[hit] += 1
        return true
    }
}
