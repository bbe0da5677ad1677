/// Compiling conditions: names resolved to indices, regexes built, field paths checked.
extension CompiledConfig {
    /// What a condition may refer to.
    struct ConditionScope {
        let config: SpytailConfig
        let vocabulary: Vocabulary
        /// The regex parsers' group names.
        let groupNames: [String]
        /// Some parser reads keys from the lines (json, logfmt, a container runtime's `stream`), or a source
        /// takes fields from its paths: any field name may occur.
        var keyed: Bool {
            config.parsers.contains { $0.format != .regex && $0.format != .text } || config.sources.contains { $0.pathFields != nil }
        }

        init(config: SpytailConfig, vocabulary: Vocabulary, groupNames: [String]) {
            self.config = config
            self.vocabulary = vocabulary
            self.groupNames = groupNames
        }
    }

    /// Compiles a condition outside a config's own compilation (viewers' filters).
    public static func compileCondition(_ condition: SpytailConfig.Condition, _ path: JSONPath, _ config: SpytailConfig,
                                        _ vocabulary: Vocabulary, _ d: ConfigDiagnostics) -> EntryCondition? {
        let groups = Array(vocabulary.fieldNames.dropLast(GapVocabulary.fieldNames.count))
        return compile(condition, path, ConditionScope(config: config, vocabulary: vocabulary, groupNames: groups), d)
    }

    static func compile(_ condition: SpytailConfig.Condition, _ path: JSONPath, _ scope: ConditionScope,
                        _ d: ConfigDiagnostics) -> EntryCondition? {
        let vocabulary = scope.vocabulary
        switch condition {
        case .contains(let text): return .contains(ByteNeedle(text))
        case .prefix(let text): return .prefix(ByteNeedle(text))
        case .regex(let text): return compileRegex(text, path.appending("regex"), d).map { .regex($0, pattern: text) }
        case .tag(let name):
            if let index = vocabulary.tagIndex(named: name) { return .tag(index, name: name) }
            d.report(path.appending("tag"), .unknownReference(kind: "tag", name: name, known: vocabulary.tags.map(\.name)))
        case .category(let name):
            if let index = vocabulary.categoryIndex(named: name) { return .category(index, name: name) }
            d.report(path.appending("category"),
                     .unknownReference(kind: "category", name: name, known: vocabulary.categories.map(\.name)))
        case .integration(let name):
            if let integration = scope.config.integrations.first(where: { $0.name == name }) {
                return .integration(name: name, prefixes: integration.ignorablePrefixes.map(ByteNeedle.init))
            }
            d.report(path.appending("integration"),
                     .unknownReference(kind: "integration", name: name, known: scope.config.integrations.map(\.name)))
        case .source(let name):
            if let index = scope.config.sources.firstIndex(where: { $0.name == name }) { return .source(index, name: name) }
            d.report(path.appending("source"), .unknownReference(kind: "source", name: name, known: scope.config.sources.map(\.name)))
        case .field(let text, let test):
            return compileField(text, test, path, scope, d).map { .field($0) }
        case .all(let parts), .any(let parts):
            let key = if case .all = condition { "all" } else { "any" }
            let compiled = parts.enumerated().compactMap { compile($1, path.appending(key).appending($0), scope, d) }
            guard compiled.count == parts.count else { return nil }
            if case .all = condition { return .all(compiled.map { ConditionProbe($0) }) }
            return .any(compiled.map { ConditionProbe($0) })
        case .not(let part):
            return compile(part, path.appending("not"), scope, d).map { .not($0) }
        }
        return nil
    }

    static func compileField(_ text: String, _ test: SpytailConfig.FieldTest, _ path: JSONPath, _ scope: ConditionScope,
                             _ d: ConfigDiagnostics) -> FieldCondition? {
        guard let fieldPath = FieldPath(text) else { return nil }  // reported when decoded
        let named = scope.vocabulary.fieldNames.firstIndex(of: fieldPath.head)
        if !scope.keyed && (named == nil || fieldPath.components.count > 1) {
            let why = scope.groupNames.isEmpty
                ? "unknown field '\(text)': there is no parse.pattern to capture it (or a json, logfmt, cri or docker parser, or a source's pathFields, to read it)"
                : "unknown field '\(text)'; the pattern's named groups are: \(scope.groupNames.joined(separator: ", "))"
            d.report(path.appending("field"), .invalidValue(why))
            return nil
        }
        let compiled: FieldCondition.Test
        switch test {
        case .equals(let value): compiled = .equals(scalar(value))
        case .oneOf(let values): compiled = .oneOf(values.map(scalar))
        case .contains(let needle): compiled = .contains(ByteNeedle(needle))
        case .prefix(let needle): compiled = .prefix(ByteNeedle(needle))
        case .regex(let pattern):
            guard let regex = compileRegex(pattern, path.appending("regex"), d) else { return nil }
            compiled = .regex(regex)
        case .exists(let flag): compiled = .exists(flag)
        case .bounds(let bounds): compiled = .bounds(bounds)
        }
        return FieldCondition(path: fieldPath, named: named, test: compiled, description: "field \(text) \(describe(test))")
    }

    static func scalar(_ value: JSONValue) -> FieldCondition.Scalar {
        switch value {
        case .string(let text):
            var copy = text
            let number = copy.withUTF8 { NumberText.double($0) }
            return .text(Array(text.utf8), number: number)
        case .number(let x): return .number(x)
        case .bool(let flag): return .bool(flag)
        default: return .null
        }
    }

    static func describe(_ test: SpytailConfig.FieldTest) -> String {
        func show(_ v: JSONValue) -> String {
            switch v {
            case .string(let s): "\"\(s)\""
            case .number(let x): x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
            case .bool(let b): "\(b)"
            default: "null"
            }
        }
        switch test {
        case .equals(let v): return "equals \(show(v))"
        case .oneOf(let vs): return "in [\(vs.map(show).joined(separator: ", "))]"
        case .contains(let s): return "contains \"\(s)\""
        case .prefix(let s): return "prefix \"\(s)\""
        case .regex(let s): return "regex \"\(s)\""
        case .exists(let flag): return flag ? "exists" : "absent"
        case .bounds(let b):
            let parts = [b.gt.map { "> \(show(.number($0)))" }, b.gte.map { ">= \(show(.number($0)))" },
                         b.lt.map { "< \(show(.number($0)))" }, b.lte.map { "<= \(show(.number($0)))" }]
            return parts.compactMap { $0 }.joined(separator: " and ")
        }
    }
}
