/// One viewer's filters (`/api/entries`, `/api/stream`, the dashboard): conditions that hide what they match
/// (`exclude=`), conditions an entry must meet to be shown (`include=`, all of them), and a search text that
/// keeps only messages containing it. A condition is written `MODE:VALUE` (`category:debug`, `contains:TEXT`,
/// `prefix:TEXT`, `tag:NAME`, `integration:NAME`, `source:NAME`) or as the config's own JSON condition
/// (`{"field": "http.status", "gte": 500}`, `{"any": [...]}`). Both are decoded and compiled by the config's
/// code and matched by `EntryCondition`: one implementation of matching. A view filter never changes what
/// outputs export.
///
/// A viewer keeps an entry's jsonl record, not the entry: a field condition reads the record's `fields`.
/// A filter is used by one request at a time (its regexes' match data is its own).
public struct ViewFilter: @unchecked Sendable {
    public let includes: [EntryCondition]
    public let excludes: [EntryCondition]
    public let query: ByteNeedle?
    /// Some condition tests a field: the record's `fields` are read for it.
    let readsFields: Bool
    /// A file of each source index (`sourceFiles[index + 1]`, the unnamed first): what a source condition reads.
    let sourceFiles: [SourceFile]
    /// The names of the config the filter was compiled against, each to its index.
    let categoryIndices: [String: Int]
    let tagIndices: [String: Int]
    let sourceIndices: [String: Int]
    /// How each batch's indices read here, worked out once per `RecentNames`.
    private let translations = IndexTranslations()

    public static let everything = ViewFilter(includes: [], excludes: [], query: nil, names: .none)

    init(includes: [EntryCondition], excludes: [EntryCondition], query: ByteNeedle?, names: RecentNames) {
        self.includes = includes
        self.excludes = excludes
        self.query = query
        readsFields = (includes + excludes).contains { $0.testsFields }
        let nowhere = Fingerprint(value: 0)
        sourceFiles = (SourceFile.unnamed..<names.sources.count).map { SourceFile(path: "", fingerprint: nowhere, source: $0) }
        func indices(_ names: [String]) -> [String: Int] {
            Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        (categoryIndices, tagIndices, sourceIndices) = (indices(names.categories), indices(names.tags), indices(names.sources))
    }

    /// Compiles `include` and `exclude` values and `q`. A condition that does not decode or names an unknown
    /// category, tag, integration, source or field is an error naming the parameter and the problem.
    public static func compile(includes: [String] = [], excludes: [String], query: String?,
                               context: ViewContext) throws(ViewFilterError) -> ViewFilter {
        var compiled: [[EntryCondition]] = [[], []]
        for (k, (parameter, texts)) in [("include", includes), ("exclude", excludes)].enumerated() {
            for text in texts { compiled[k].append(try condition(text, parameter: parameter, context: context)) }
        }
        let needle = query.flatMap { $0.isEmpty ? nil : ByteNeedle($0) }
        return ViewFilter(includes: compiled[0], excludes: compiled[1], query: needle, names: RecentNames(context.vocabulary))
    }

    static let modes = ["category", "contains", "prefix", "tag", "integration", "source"]

    /// One parameter's condition: JSON when it starts with `{`, `MODE:VALUE` otherwise.
    static func condition(_ text: String, parameter: String, context: ViewContext) throws(ViewFilterError) -> EntryCondition {
        let named = "\(parameter)=\(text)"
        let diagnostics = ConfigDiagnostics()
        let path = JSONPath.root.appending(parameter)
        let decoded: SpytailConfig.Condition?
        if text.first == "{" {
            let value: JSONValue
            do { value = try JSONValue.parse(Array(text.utf8)) } catch { throw ViewFilterError("\(named): \(error)") }
            decoded = ObjectReader(value, at: path, diagnostics, keys: ConfigKeys.condition)
                .flatMap { SpytailConfig.decodeCondition($0, diagnostics, inRule: false) }
        } else {
            decoded = try simple(text, named: named)
        }
        if let decoded, let compiled = CompiledConfig.compileCondition(decoded, path, context.config, context.vocabulary, diagnostics),
           diagnostics.errors.isEmpty {
            return compiled
        }
        throw ViewFilterError("\(named): " + (diagnostics.errors.map(\.description).joined(separator: "; ")))
    }

    static func simple(_ text: String, named: String) throws(ViewFilterError) -> SpytailConfig.Condition {
        let expected = "expected MODE:VALUE (MODE one of \(modes.joined(separator: ", "))) or a JSON condition"
        guard let colon = text.firstIndex(of: ":") else { throw ViewFilterError("\(named): \(expected)") }
        let (mode, value) = (String(text[..<colon]), String(text[text.index(after: colon)...]))
        guard !value.isEmpty else { throw ViewFilterError("\(named): empty value") }
        guard modes.contains(mode), let condition = SpytailConfig.simpleCondition(mode, value) else {
            throw ViewFilterError("\(named): unknown mode '\(mode)'; \(expected)")
        }
        return condition
    }

    /// Whether this viewer sees `entry`.
    public func shows(_ entry: RecentEntry) -> Bool {
        entry.batch.withBytes { shows(entry.batch.items[entry.index], of: entry.batch, in: $0) }
    }

    /// Whether this viewer sees the entry `item` of `batch`, whose bytes are `bytes`.
    public func shows(_ item: RecentBatch.Item, of batch: RecentBatch, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let query, !query.occurs(in: UnsafeBufferPointer(rebasing: bytes[item.message])) { return false }
        guard !includes.isEmpty || !excludes.isEmpty else { return true }
        let entry = viewed(item, through: translation(of: batch.names), in: bytes)
        for condition in includes where !condition.matches(entry, text: bytes) { return false }
        for condition in excludes where condition.matches(entry, text: bytes) { return false }
        return true
    }

    /// Whether this viewer sees `entry`, an entry classified with the same config the filter was compiled
    /// against (the explorer reads entries again from their files): its own fields are tested, no record.
    public func shows(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let query, !query.occurs(in: UnsafeBufferPointer(rebasing: text[entry.message])) { return false }
        for condition in includes where !condition.matches(entry, text: text) { return false }
        for condition in excludes where condition.matches(entry, text: text) { return false }
        return true
    }

    /// Whether it has anything to test (else it shows everything).
    public var isEmpty: Bool { query == nil && includes.isEmpty && excludes.isEmpty }

    /// How the indices of a batch read in this filter's config: by name (a reload may have reordered,
    /// renamed or removed categories, tags and sources since the entries were read).
    func translation(of names: RecentNames) -> IndexTranslation {
        guard names !== RecentNames.none else { return .identity }
        return translations.translation(of: names) { IndexTranslation(from: $0, to: categoryIndices, tagIndices, sourceIndices) }
    }


    /// The entry as conditions read it: category, tags, source, the message and, when a condition tests
    /// one, the fields of the record (all ranges into the batch's bytes).
    func viewed(_ item: RecentBatch.Item, through translation: IndexTranslation, in bytes: UnsafeBufferPointer<UInt8>) -> SpyEntry {
        let slot = translation.source(item.source) + 1
        var entry = SpyEntry(file: sourceFiles.indices.contains(slot) ? sourceFiles[slot] : sourceFiles[0])
        entry.category = translation.category(item.category)
        entry.tags = translation.tags(item.tags)
        entry.message = item.message
        if readsFields, let fields = Self.fieldsKey.withUnsafeBufferPointer({ JSONWalker.member(in: bytes, item.record, named: $0) }),
           fields.kind == .object {
            JSONWalker.forEach(in: bytes, fields.range) { field in
                entry.fields.append(field)
                return true
            }
        }
        return entry
    }

    static let fieldsKey = Array("fields".utf8)
}

/// A view filter that does not compile: the message names the parameter and what is wrong with it.
public struct ViewFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
