/// Turns an assembled entry into a classified one: its source's parser (message, timestamp, fields), then
/// category (first matching rule, else the default) and tags (every matching rule).
public struct RuleSet {
    public let vocabulary: Vocabulary
    /// The default parser (the top-level `parse`) first, then the named ones in name order.
    public let parsers: [LineParser]
    /// Parser index of each config source (`SourceFile.source`).
    let sourceParsers: [Int]
    /// `parsers` as plain words, for the per-line call (loading the class out of the array retained it).
    private let parserRefs: [Unmanaged<LineParser>]
    /// The category rules in config order, the default category excluded: each one's condition, and its
    /// category index at the same place.
    let categoryProbes: [ConditionProbe]
    let categoryIndices: [Int]
    /// Which category probes test the field the one before tests (looked up once for the run).
    let categoryShares: [Bool]
    /// The rules as compiled, for building the same set another way.
    let conditions: (categories: [(category: Int, rule: EntryCondition)], tags: [(tag: Int, rule: EntryCondition)])
    let defaultCategory: Int
    /// The tag rules: each one's condition, and its tag index at the same place.
    let tagProbes: [ConditionProbe]
    let tagIndices: [Int]
    /// Each config source's `pathFields` (nil: none), at the source's index.
    public let pathFields: [PathFields?]

    /// `plainRules`: match a field rule on a regex group as a plain `MatchRule` (nil: when no parser reads keys
    /// from its lines, the only case where that means the same; tests force both ways to compare them).
    public init(vocabulary: Vocabulary, parsers: [LineParser], sourceParsers: [Int],
                categoryRules: [(category: Int, rule: EntryCondition)], defaultCategory: Int, tagRules: [(tag: Int, rule: EntryCondition)],
                pathFields: [PathFields?] = [], plainRules: Bool? = nil) {
        precondition(!parsers.isEmpty, "the default parser comes first")
        self.vocabulary = vocabulary
        self.parsers = parsers
        self.sourceParsers = sourceParsers
        parserRefs = parsers.map { .passUnretained($0) }
        // A rule on a regex group is matched plainly unless some entry may carry a keyed field of the same name.
        let keyed = parsers.reduce(Set<String>() as Set<String>?) { names, parser in
            guard let names, let more = parser.keyedNames else { return nil }
            return names.union(more)
        }?.union(pathFields.compactMap { $0?.key })
        let plain = plainRules ?? (keyed.map { $0.isDisjoint(with: vocabulary.fieldNames) } ?? false)
        self.pathFields = pathFields
        conditions = (categoryRules, tagRules)
        categoryProbes = categoryRules.map { ConditionProbe($0.rule, plainFields: plain) }
        categoryIndices = categoryRules.map(\.category)
        categoryShares = ConditionProbe.sharingFields(categoryProbes)
        self.defaultCategory = defaultCategory
        tagProbes = tagRules.map { ConditionProbe($0.rule, plainFields: plain) }
        tagIndices = tagRules.map(\.tag)
    }

    /// The same rules, the plain-rule path forced on or off.
    func with(plainRules: Bool) -> RuleSet {
        RuleSet(vocabulary: vocabulary, parsers: parsers, sourceParsers: sourceParsers, categoryRules: conditions.categories,
                defaultCategory: defaultCategory, tagRules: conditions.tags, pathFields: pathFields, plainRules: plainRules)
    }

    /// The default parser (the top-level `parse`).
    public var defaultParser: LineParser { parsers[0] }

    /// Index into `parsers` of the parser for a file of `source`: the default (0) for a file of no source.
    @inline(__always)
    func parserIndex(forSource source: Int) -> Int {
        source >= 0 && source < sourceParsers.count ? sourceParsers[source] : 0
    }

    /// The parser of a file's source (`SourceFile.source`); the default one for a file without a source.
    @inline(__always)
    public func parser(forSource source: Int) -> LineParser {
        parsers[parserIndex(forSource: source)]
    }

    /// Fills the parsed parts of `entry` (whose `text` and `headLength` are set). `readTime` also reads
    /// the timestamp into `entry.time`, which only time windows and some outputs need.
    public func classify(_ entry: inout SpyEntry, readTime: Bool) {
        let source = entry.file.source
        let ref = parserRefs[parserIndex(forSource: source)]
        let format: TimestampFormat? = ref._withUnsafeGuaranteedRef { parser in
            parser.parse(&entry)
            return readTime ? parser.timestampFormat(of: entry) : nil
        }
        if source >= 0 && source < pathFields.count, let fields = pathFields[source] { fields.apply(to: &entry) }
        let (category, tags, time) = rulings(entry, format)
        entry.category = category
        entry.tags = tags
        entry.time = time
    }

    /// Category, tags and time of a parsed entry, read in place (`borrowing`: no copy of the entry).
    private func rulings(_ entry: borrowing SpyEntry, _ format: TimestampFormat?) -> (Int, TagSet, Int64?) {
        entry.text.withUnsafeBufferPointer { text in
            entry.fields.withUnsafeBufferPointer { fields in
                (categorize(entry, text, fields), tag(entry, text, fields), format.flatMap { readTimestamp(entry, $0, text) })
            }
        }
    }

    // The rules are read in place through a buffer pointer: iterating the array copied each rule (a retain
    // and a release of its needle or regex per rule and line).
    func categorize(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ fields: UnsafeBufferPointer<FieldValue>) -> Int {
        let hit = categoryProbes.withUnsafeBufferPointer { probes in
            categoryShares.withUnsafeBufferPointer { ConditionProbe.firstMatch(probes, entry, text: text, fields: fields, sharesField: $0) }
        }
        return hit.map { categoryIndices[$0] } ?? defaultCategory
    }

    func tag(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ fields: UnsafeBufferPointer<FieldValue>) -> TagSet {
        tagProbes.withUnsafeBufferPointer { probes in
            var tags = TagSet()
            for k in probes.indices where ConditionProbe.matches(probes.baseAddress! + k, entry, text: text, fields: fields) { tags.insert(tagIndices[k]) }
            return tags
        }
    }

    func readTimestamp(_ entry: borrowing SpyEntry, _ format: TimestampFormat, _ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let range = entry.timestamp else { return nil }
        return format.parse(UnsafeBufferPointer(rebasing: text[range]))
    }
}
