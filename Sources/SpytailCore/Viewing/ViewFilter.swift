/// One viewer's filters (`/api/entries`, `/api/stream`, the dashboard): exclusions written `MODE:VALUE`
/// (`category:debug`, `contains:TEXT`, `prefix:TEXT`, `tag:NAME`, `integration:NAME`) and a search text that
/// keeps only messages containing it. Compiled by the config's own condition compiler, matched by
/// `EntryCondition`: one implementation of matching. A view filter never changes what outputs export.
public struct ViewFilter: Sendable {
    public let excludes: [EntryCondition]
    public let query: ByteNeedle?

    public static let everything = ViewFilter(excludes: [], query: nil)

    init(excludes: [EntryCondition], query: ByteNeedle?) {
        self.excludes = excludes
        self.query = query
    }

    /// Compiles `exclude` values and `q`; an unknown mode, category, tag or integration is an error naming it.
    public static func compile(excludes: [String], query: String?, context: ViewContext) throws(ViewFilterError) -> ViewFilter {
        var conditions: [EntryCondition] = []
        for text in excludes {
            guard let colon = text.firstIndex(of: ":") else {
                throw ViewFilterError("exclude=\(text): expected MODE:VALUE, MODE one of \(Self.modes.joined(separator: ", "))")
            }
            let (mode, value) = (String(text[..<colon]), String(text[text.index(after: colon)...]))
            guard !value.isEmpty else { throw ViewFilterError("exclude=\(text): empty value") }
            let condition: SpytailConfig.Condition
            switch mode {
            case "contains": condition = .contains(value)
            case "prefix": condition = .prefix(value)
            case "tag": condition = .tag(value)
            case "category": condition = .category(value)
            case "integration": condition = .integration(value)
            default: throw ViewFilterError("exclude=\(text): unknown mode '\(mode)', expected one of \(Self.modes.joined(separator: ", "))")
            }
            let diagnostics = ConfigDiagnostics()
            let path = JSONPath.root.appending("exclude")
            guard let compiled = CompiledConfig.compileCondition(condition, path, context.config, context.vocabulary, diagnostics) else {
                let problem = diagnostics.errors.first.map { "\($0.problem)" } ?? "not understood"
                throw ViewFilterError("exclude=\(text): \(problem)")
            }
            conditions.append(compiled)
        }
        let needle = query.flatMap { $0.isEmpty ? nil : ByteNeedle($0) }
        return ViewFilter(excludes: conditions, query: needle)
    }

    static let modes = ["category", "contains", "prefix", "tag", "integration"]

    /// Whether this viewer sees `entry`.
    public func shows(_ entry: RecentEntry) -> Bool {
        entry.batch.withBytes { shows(entry.batch.items[entry.index], in: $0) }
    }

    /// Whether this viewer sees the entry `item` of a batch whose bytes are `bytes`.
    public func shows(_ item: RecentBatch.Item, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let message = UnsafeBufferPointer(rebasing: bytes[item.message])
        if let query, !query.occurs(in: message) { return false }
        for condition in excludes where condition.matches(category: item.category, tags: item.tags, message: message) {
            return false
        }
        return true
    }
}

/// A view filter that does not compile: the message names the parameter and what is wrong with it.
public struct ViewFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
