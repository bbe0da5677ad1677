/// A config checked across fields and compiled: regexes built, names resolved to indices.
/// `check`, `scan` and `run` all go through here, so they refuse a bad config the same way.
public struct CompiledConfig {
    public let config: SpytailConfig
    public let rules: RuleSet
    public let filters: [EntryCondition]
    /// The `where` condition of each output, in `config.outputs` order.
    public let outputConditions: [EntryCondition?]

    /// Compiles `config`; throws every problem found, each with its JSON path.
    public init(_ config: SpytailConfig) throws(ConfigErrors) {
        let d = ConfigDiagnostics()
        let parsePath = JSONPath.root.appending("parse")
        var fieldNames: [String] = []
        let parsers = Self.compileParsers(config, &fieldNames, d)
        let sourceParsers = Self.sourceParsers(config, d)
        Self.checkUniqueNames(config, d)
        let defaultCategory = Self.defaultCategoryIndex(config.parse.categories, parsePath.appending("categories"), d)
        if config.parse.tags.count > TagSet.capacity {
            d.report(parsePath.appending("tags"), .invalidValue("at most \(TagSet.capacity) tags are supported"))
        }
        // Built in after the config's own: the `gap` category (unless the config names one) and the fields
        // of gap records, so every formatter can print them.
        var categories = config.parse.categories.map { Vocabulary.Label(name: $0.name, display: $0.display, color: $0.color) }
        if !categories.contains(where: { $0.name == GapVocabulary.category }) {
            categories.append(.init(name: GapVocabulary.category, display: "⚠️ gap", color: "magenta"))
        }
        let vocabulary = Vocabulary(
            categories: categories,
            tags: config.parse.tags.map { .init(name: $0.name, display: $0.display) },
            fieldNames: fieldNames + GapVocabulary.fieldNames,
            sources: config.sources.map(\.name))
        let scope = ConditionScope(config: config, vocabulary: vocabulary, groupNames: fieldNames)
        var categoryRules: [(category: Int, rule: EntryCondition)] = []
        for (i, category) in config.parse.categories.enumerated() {
            guard let match = category.match else { continue }
            let path = parsePath.appending("categories").appending(i).appending("match")
            if let rule = Self.compile(match, path, scope, d) { categoryRules.append((i, rule)) }
        }
        var tagRules: [(tag: Int, rule: EntryCondition)] = []
        for (i, tag) in config.parse.tags.enumerated() {
            let path = parsePath.appending("tags").appending(i).appending("match")
            if let rule = Self.compile(tag.match, path, scope, d) { tagRules.append((i, rule)) }
        }
        let filters = config.filters.enumerated().compactMap { i, condition in
            Self.compile(condition, JSONPath.root.appending("filters").appending(i).appending("exclude"), scope, d)
        }
        let outputConditions = config.outputs.enumerated().map { i, output in
            output.whereCondition.flatMap {
                Self.compile($0, JSONPath.root.appending("outputs").appending(i).appending("where"), scope, d)
            }
        }
        Self.checkOutputs(config.outputs, d)
        for (i, output) in config.outputs.enumerated() {
            guard case .syslog(let syslog) = output.destination else { continue }
            for name in syslog.severities.keys.sorted() where vocabulary.categoryIndex(named: name) == nil {
                d.report(JSONPath.root.appending("outputs").appending(i).appending("severity").appending(name),
                         .unknownReference(kind: "category", name: name, known: vocabulary.categories.map(\.name)))
            }
        }
        Self.checkRotatedPatterns(config.sources, d)
        let pathFields = Self.compilePathFields(config.sources, d)
        Self.checkSourcePaths(config, pathFields: pathFields, d)
        guard d.errors.isEmpty else { throw ConfigErrors(d.errors) }
        self.config = config
        self.filters = filters
        self.outputConditions = outputConditions
        rules = RuleSet(vocabulary: vocabulary, parsers: parsers, sourceParsers: sourceParsers,
                        categoryRules: categoryRules, defaultCategory: defaultCategory ?? 0, tagRules: tagRules,
                        pathFields: pathFields)
    }

    /// The default parser's multiline rule.
    public var continuation: Regex? { rules.defaultParser.continuation }

    /// The parser that reads a file of `source` (`SourceFile.source`).
    public func parser(forSource source: Int) -> LineParser { rules.parser(forSource: source) }

    /// Index of the config's source named `name`.
    public func sourceIndex(named name: String) -> Int? { config.sources.firstIndex { $0.name == name } }

    /// Decodes and compiles config JSON.
    public init(json: [UInt8]) throws(ConfigErrors) {
        try self.init(SpytailConfig.decode(json))
    }

    /// A one-line description for `check`.
    public var summary: String {
        let c = config
        return "\(c.sources.count) source(s), \(c.parse.categories.count) categories, \(c.parse.tags.count) tags, "
            + "\(c.integrations.count) integration(s), \(c.filters.count) filter(s), \(c.outputs.count) output(s), "
            + (config.parsers.isEmpty ? "" : "\(config.parsers.count) parser(s) (\(config.parsers.map { "\($0.name): \($0.format.rawValue)" }.joined(separator: ", "))), ")
            + (rules.vocabulary.fieldNames.count > GapVocabulary.fieldNames.count
                ? "fields: [\(rules.vocabulary.fieldNames.dropLast(GapVocabulary.fieldNames.count).joined(separator: ", "))], " : "no pattern, ")
            + "state \(c.state.rawValue)"
    }
}

extension CompiledConfig {
    /// A source's `rotatedPattern` must compile and name what orders the chain.
    static func checkRotatedPatterns(_ sources: [SpytailConfig.Source], _ d: ConfigDiagnostics) {
        for (i, source) in sources.enumerated() {
            guard let text = source.rotatedPattern else { continue }
            let path = JSONPath.root.appending("sources").appending(i).appending("rotatedPattern")
            guard let regex = compileRegex(text, path, d) else { continue }
            if !regex.namedGroups.contains(where: { $0.name == "date" || $0.name == "index" }) {
                d.report(path, .invalidValue("needs a named group 'date' or 'index', e.g. (?<date>\\d{4}-\\d\\d-\\d\\d)"))
            }
        }
    }

    /// Each source's `pathFields`: a regex with at least one named group, each named once.
    static func compilePathFields(_ sources: [SpytailConfig.Source], _ d: ConfigDiagnostics) -> [PathFields?] {
        sources.enumerated().map { i, source in
            guard let text = source.pathFields else { return nil }
            let path = JSONPath.root.appending("sources").appending(i).appending("pathFields")
            guard let regex = compileRegex(text, path, d) else { return nil }
            if regex.namedGroups.isEmpty {
                d.report(path, .invalidValue("needs named groups, whose names become the fields, e.g. /var/log/pods/(?<namespace>[^_/]+)_(?<pod>[^_/]+)_"))
                return nil
            }
            return PathFields(regex: regex, key: source.pathFieldsKey)
        }
    }

    static func compileRegex(_ pattern: String, _ path: JSONPath, _ d: ConfigDiagnostics) -> Regex? {
        do throws(RegexError) {
            return try Regex(pattern)
        } catch {
            d.report(path, .invalidRegex(error))
            return nil
        }
    }

    static func compilePattern(_ pattern: String?, _ path: JSONPath, _ d: ConfigDiagnostics) -> LinePattern? {
        guard let pattern else { return nil }
        do throws(RegexError) {
            return try LinePattern(pattern)
        } catch {
            d.report(path, .invalidRegex(error))
            return nil
        }
    }

    static func defaultCategoryIndex(_ categories: [SpytailConfig.Category], _ path: JSONPath, _ d: ConfigDiagnostics) -> Int? {
        let defaults = categories.indices.filter { categories[$0].isDefault }
        if categories.isEmpty {
            d.report(path, .invalidValue("needs at least one category, one of them with \"default\": true"))
        } else if defaults.isEmpty {
            d.report(path, .invalidValue("exactly one category must have \"default\": true; none has"))
        } else if defaults.count > 1 {
            d.report(path.appending(defaults[1]).appending("default"),
                     .invalidValue("exactly one category must have \"default\": true; \(path.appending(defaults[0])) has it already"))
        }
        return defaults.first
    }

    static func checkUniqueNames(_ config: SpytailConfig, _ d: ConfigDiagnostics) {
        func unique(_ names: [String], _ path: JSONPath) {
            var seen: [String: JSONPath] = [:]
            for (i, name) in names.enumerated() {
                let here = path.appending(i).appending("name")
                if let first = seen[name] { d.report(here, .duplicateName(name, first: first)) } else { seen[name] = here }
            }
        }
        unique(config.sources.map(\.name), JSONPath.root.appending("sources"))
        unique(config.parse.categories.map(\.name), JSONPath.root.appending("parse").appending("categories"))
        unique(config.parse.tags.map(\.name), JSONPath.root.appending("parse").appending("tags"))
        unique(config.integrations.map(\.name), JSONPath.root.appending("integrations"))
    }

    /// A file output's path may hold `{source}` and `{<pathFieldsKey>.<group>}` of some source's `pathFields`;
    /// with `{source}`, every source name must then be a file name.
    static func checkSourcePaths(_ config: SpytailConfig, pathFields: [PathFields?], _ d: ConfigDiagnostics) {
        var templated: JSONPath?
        let groups = Set(pathFields.compactMap { $0 }.flatMap { fields in fields.groupNames.map { "\(fields.key).\($0)" } })
        for (i, output) in config.outputs.enumerated() {
            guard case .file(let path) = output.destination else { continue }
            let at = JSONPath.root.appending("outputs").appending(i).appending("path")
            guard let names = SourcePathTemplate.placeholders(in: path) else {
                d.report(at, .invalidValue("a { without its } (placeholders: {source}, or {key.group} of a source's pathFields)"))
                continue
            }
            for name in names where name != "source" && !groups.contains(name) {
                let known = (["source"] + groups.sorted()).joined(separator: ", ")
                d.report(at, .invalidValue("{\(name)} is not a placeholder; known: \(known) (a group of a source's pathFields is {key.group})"))
            }
            if names.contains("source") { templated = templated ?? at }
        }
        guard let templated else { return }
        for (i, source) in config.sources.enumerated() {
            if let problem = SourcePathTemplate.problem(with: source.name) {
                d.report(JSONPath.root.appending("sources").appending(i).appending("name"),
                         .invalidValue("'\(source.name)' \(problem): it names a file through {source} in \(templated)"))
            }
        }
    }

    static func checkOutputs(_ outputs: [SpytailConfig.Output], _ d: ConfigDiagnostics) {
        var stdoutAt: JSONPath?
        var files: [String: JSONPath] = [:]
        for (i, output) in outputs.enumerated() {
            let path = JSONPath.root.appending("outputs").appending(i)
            switch output.destination {
            case .stdout:
                if let first = stdoutAt {
                    d.report(path.appending("type"), .invalidValue("only one output may write to stdout (\(first) does already)"))
                }
                stdoutAt = stdoutAt ?? path
            case .clickhouse, .syslog:
                break  // two outputs may fill one table or server
            case .file(let file):
                if let first = files[file] {
                    d.report(path.appending("path"), .invalidValue("'\(file)' is written by \(first) already"))
                }
                files[file] = files[file] ?? path
            }
        }
    }
}
