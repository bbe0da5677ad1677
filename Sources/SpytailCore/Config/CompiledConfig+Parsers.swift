/// Compiling the default `parse` and the named `parsers`, and which one each source uses.
extension CompiledConfig {
    /// The default parser first, then the named ones in `config.parsers` order. Regex groups are named in
    /// one vocabulary (`fieldNames`, grown here) shared by every parser.
    static func compileParsers(_ config: SpytailConfig, _ fieldNames: inout [String], _ d: ConfigDiagnostics) -> [LineParser] {
        let parse = config.parse
        let parsePath = JSONPath.root.appending("parse")
        let pattern = compilePattern(parse.pattern, parsePath.appending("pattern"), d).map {
            $0.naming(vocabularyIndices($0.fieldNames, &fieldNames))
        }
        let continuation = parse.multiline.flatMap {
            compileRegex($0.continuation, parsePath.appending("multiline").appending("continuation"), d)
        }
        var parsers = [LineParser(name: "parse", format: pattern.map { .regex($0) } ?? .text, timestampFormat: parse.timestampFormat,
                                  continuation: continuation, maxLineBytes: parse.maxLineBytes,
                                  idleTimeoutMs: parse.multiline?.idleTimeoutMs ?? 1000)]
        // Container parsers last: they take a compiled inner parser.
        var compiled: [String: LineParser] = [:]
        for parser in config.parsers where parser.format.container == nil {
            let path = JSONPath.root.appending("parsers").appending(parser.name)
            compiled[parser.name] = compileParser(parser, path, parse, &fieldNames, d)
        }
        for parser in config.parsers where parser.format.container != nil {
            let path = JSONPath.root.appending("parsers").appending(parser.name)
            compiled[parser.name] = compileContainerParser(parser, path, parse, config.parsers, compiled, d)
        }
        // In `config.parsers` order, as `sourceParsers` counts them.
        for parser in config.parsers {
            if let one = compiled[parser.name] { parsers.append(one) }
        }
        return parsers
    }

    /// A `cri` or `docker` parser, with the compiled parser its `inner` names.
    static func compileContainerParser(_ parser: SpytailConfig.Parser, _ path: JSONPath, _ parse: SpytailConfig.Parse,
                                       _ all: [SpytailConfig.Parser], _ compiled: [String: LineParser], _ d: ConfigDiagnostics) -> LineParser? {
        guard let format = parser.format.container else { return nil }
        var inner: LineParser?
        if let name = parser.inner {
            let innerPath = path.appending("inner")
            guard let declared = all.first(where: { $0.name == name }) else {
                d.report(innerPath, .unknownReference(kind: "parser", name: name, known: all.filter { $0.format.container == nil }.map(\.name)))
                return nil
            }
            if declared.format.container != nil {
                d.report(innerPath, .invalidValue("'\(name)' is a \(declared.format.rawValue) parser itself; an inner parser reads the application's text (json, logfmt, regex, text)"))
                return nil
            }
            if declared.multiline != nil {
                d.report(innerPath, .invalidValue("'\(name)' has a multiline rule; give it to '\(parser.name)', which joins a container's lines per stream"))
                return nil
            }
            guard let found = compiled[name] else { return nil }  // it failed to compile: reported there
            inner = found
        }
        let continuation = parser.multiline.flatMap {
            compileRegex($0.continuation, path.appending("multiline").appending("continuation"), d)
        }
        return LineParser(name: parser.name, format: .container(format, inner: inner), timestampFormat: .iso8601,
                          continuation: continuation, maxLineBytes: parser.maxLineBytes ?? parse.maxLineBytes,
                          idleTimeoutMs: parser.multiline?.idleTimeoutMs ?? parse.multiline?.idleTimeoutMs ?? 1000)
    }

    static func compileParser(_ parser: SpytailConfig.Parser, _ path: JSONPath, _ parse: SpytailConfig.Parse,
                              _ fieldNames: inout [String], _ d: ConfigDiagnostics) -> LineParser? {
        let continuation = parser.multiline.flatMap {
            compileRegex($0.continuation, path.appending("multiline").appending("continuation"), d)
        }
        let format: LineParser.Format
        var groupTypes: [(field: Int, type: SpytailConfig.Parser.FieldType)] = []
        var keyTypes: [(key: [UInt8], type: SpytailConfig.Parser.FieldType)] = []
        var timestampKeys: [String] = [], messageKeys: [String] = []
        switch parser.format {
        case .regex:
            guard let unnamed = compilePattern(parser.pattern, path.appending("pattern"), d) else { return nil }
            let indices = vocabularyIndices(unnamed.fieldNames, &fieldNames)
            let pattern = unnamed.naming(indices)
            for (name, type) in parser.types.sorted(by: { $0.key < $1.key }) {
                guard let k = pattern.fieldNames.firstIndex(of: name) else {
                    d.report(path.appending("types").appending(name),
                             .invalidValue("the pattern has no group named '\(name)'; its groups are: \(pattern.fieldNames.joined(separator: ", "))"))
                    continue
                }
                groupTypes.append((indices[k], type))
            }
            format = .regex(pattern)
        case .json:
            format = .json
            (timestampKeys, messageKeys) = (LineParser.jsonTimestampKeys, LineParser.jsonMessageKeys)
        case .logfmt:
            format = .logfmt
            (timestampKeys, messageKeys) = (LineParser.logfmtTimestampKeys, LineParser.logfmtMessageKeys)
            keyTypes = parser.types.sorted { $0.key < $1.key }.map { (Array($0.key.utf8), $0.value) }
        case .text:
            format = .text
        case .cri, .docker:
            return nil  // compileContainerParser
        }
        if let key = parser.timestampKey { timestampKeys = [key] }
        if let key = parser.messageKey { messageKeys = [key] }
        let defaultFormat: TimestampFormat = parser.format == .json || parser.format == .logfmt ? .auto : .iso8601
        return LineParser(name: parser.name, format: format, timestampFormat: parser.timestampFormat ?? defaultFormat,
                          timestampKeys: timestampKeys.compactMap(FieldPath.init), messageKeys: messageKeys.compactMap(FieldPath.init),
                          groupTypes: groupTypes, keyTypes: keyTypes, continuation: continuation,
                          maxLineBytes: parser.maxLineBytes ?? parse.maxLineBytes,
                          idleTimeoutMs: parser.multiline?.idleTimeoutMs ?? parse.multiline?.idleTimeoutMs ?? 1000)
    }

    /// The vocabulary index of each group name, adding the names not seen yet.
    static func vocabularyIndices(_ names: [String], _ fieldNames: inout [String]) -> [Int] {
        names.map { name in
            if let index = fieldNames.firstIndex(of: name) { return index }
            fieldNames.append(name)
            return fieldNames.count - 1
        }
    }

    /// The parser index (into `RuleSet.parsers`) of each source: 0 (the default) unless it names one.
    static func sourceParsers(_ config: SpytailConfig, _ d: ConfigDiagnostics) -> [Int] {
        config.sources.enumerated().map { i, source in
            guard let name = source.parser else { return 0 }
            if let index = config.parsers.firstIndex(where: { $0.name == name }) { return index + 1 }
            d.report(JSONPath.root.appending("sources").appending(i).appending("parser"),
                     .unknownReference(kind: "parser", name: name, known: config.parsers.map(\.name)))
            return 0
        }
    }
}
