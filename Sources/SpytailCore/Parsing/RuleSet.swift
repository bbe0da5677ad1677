/// Turns an assembled entry into a classified one: pattern, timestamp, category (first matching rule,
/// else the default) and tags (every matching rule).
public struct RuleSet {
    public let vocabulary: Vocabulary
    public let pattern: LinePattern?
    public let timestampFormat: TimestampFormat
    /// (category index, rule) in config order, the default category excluded.
    let categoryRules: [(category: Int, rule: MatchRule)]
    let defaultCategory: Int
    /// (tag index, rule).
    let tagRules: [(tag: Int, rule: MatchRule)]

    public init(vocabulary: Vocabulary, pattern: LinePattern?, timestampFormat: TimestampFormat,
                categoryRules: [(category: Int, rule: MatchRule)], defaultCategory: Int, tagRules: [(tag: Int, rule: MatchRule)]) {
        self.vocabulary = vocabulary
        self.pattern = pattern
        self.timestampFormat = timestampFormat
        self.categoryRules = categoryRules
        self.defaultCategory = defaultCategory
        self.tagRules = tagRules
    }

    /// Fills the parsed parts of `entry` (whose `text` and `headLength` are set). `readTime` also reads
    /// the timestamp into `entry.time`, which only time windows need.
    public func classify(_ entry: inout SpyEntry, readTime: Bool) {
        if pattern?.apply(to: &entry) != true {
            entry.timestamp = nil
            entry.message = 0..<entry.headLength
            entry.fields.removeAll(keepingCapacity: true)
        }
        let (category, tags, time) = rulings(entry, readTime: readTime)
        entry.category = category
        entry.tags = tags
        entry.time = time
    }

    /// Category, tags and time of a parsed entry, read in place (`borrowing`: no copy of the entry).
    private func rulings(_ entry: borrowing SpyEntry, readTime: Bool) -> (Int, TagSet, Int64?) {
        entry.text.withUnsafeBufferPointer { text in
            (categorize(entry, text), tag(entry, text), readTime ? readTimestamp(entry, text) : nil)
        }
    }

    // The rules are read in place through a buffer pointer: iterating the array copied each rule (a retain
    // and a release of its needle or regex per rule and line).
    func categorize(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>) -> Int {
        categoryRules.withUnsafeBufferPointer { rules in
            for index in rules.indices where rules[index].rule.matches(entry, text: text) { return rules[index].category }
            return defaultCategory
        }
    }

    func tag(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>) -> TagSet {
        tagRules.withUnsafeBufferPointer { rules in
            var tags = TagSet()
            for index in rules.indices where rules[index].rule.matches(entry, text: text) { tags.insert(rules[index].tag) }
            return tags
        }
    }

    func readTimestamp(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let range = entry.timestamp else { return nil }
        return timestampFormat.parse(UnsafeBufferPointer(rebasing: text[range]))
    }
}
