/// Reading a config from JSON: every key checked for type, unknown keys rejected, errors collected
/// with their JSON path.
extension SpytailConfig {
    /// Decodes `bytes` (UTF-8 JSON). Throws every structural problem found, with paths.
    public static func decode(_ bytes: [UInt8]) throws(ConfigErrors) -> SpytailConfig {
        let json = try JSONValue.parse(bytes)
        let diagnostics = ConfigDiagnostics()
        let config = decode(json, diagnostics)
        if !diagnostics.errors.isEmpty { throw ConfigErrors(diagnostics.errors) }
        return config
    }

    static func decode(_ json: JSONValue, _ d: ConfigDiagnostics) -> SpytailConfig {
        var config = SpytailConfig()
        guard var top = ObjectReader(json, at: .root, d) else { return config }
        config.sources = top.array("sources")?.compactMap { decodeSource($0.value, $0.path, d) } ?? []
        config.checkpoints = top.string("checkpoints")
        if let parse = top.object("parse") { config.parse = decodeParse(parse, d) }
        config.integrations = top.array("integrations")?.compactMap { decodeIntegration($0.value, $0.path, d) } ?? []
        config.filters = top.array("filters")?.compactMap { decodeFilter($0.value, $0.path, d) } ?? []
        if let outputs = top.array("outputs") {
            config.outputs = outputs.compactMap { decodeOutput($0.value, $0.path, d) }
        }
        config.state = top.choice("state", SpyState.self) ?? .recording
        if var tail = top.object("tail") {
            config.tail.maxOpenFiles = tail.integer("maxOpenFiles", in: 8...1_000_000) ?? config.tail.maxOpenFiles
            config.tail.rotateWaitMs = tail.integer("rotateWaitMs", in: 0...3_600_000) ?? config.tail.rotateWaitMs
            config.tail.syncIntervalMs = tail.integer("syncIntervalMs", in: 0...3_600_000) ?? config.tail.syncIntervalMs
            tail.finish()
        }
        top.finish()
        return config
    }

    static func decodeSource(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Source? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let include = r.strings("include", required: true)
        if include?.isEmpty == true { r.report("include", .invalidValue("must name at least one pattern")) }
        guard let name, let include else { return nil }
        var source = Source(name: name, include: include)
        source.exclude = r.strings("exclude") ?? []
        source.rotated = r.bool("rotated") ?? true
        source.startAt = r.choice("startAt", Source.StartAt.self) ?? .beginning
        source.followSymlinks = r.bool("followSymlinks") ?? false
        return source
    }

    static func decodeParse(_ reader: ObjectReader, _ d: ConfigDiagnostics) -> Parse {
        var r = reader
        defer { r.finish() }
        var parse = Parse()
        parse.pattern = r.string("pattern")
        parse.timestampFormat = r.choice("timestampFormat", TimestampFormat.self) ?? .iso8601
        if var m = r.object("multiline") {
            if let continuation = m.string("continuation", required: true) {
                var multiline = Multiline(continuation: continuation)
                multiline.idleTimeoutMs = m.integer("idleTimeoutMs", in: 1...3_600_000) ?? 1000
                parse.multiline = multiline
            }
            m.finish()
        }
        parse.maxLineBytes = r.integer("maxLineBytes", in: 64...(1 << 30)) ?? parse.maxLineBytes
        if let categories = r.array("categories") {
            parse.categories = categories.compactMap { decodeCategory($0.value, $0.path, d) }
        }
        parse.tags = r.array("tags")?.compactMap { decodeTag($0.value, $0.path, d) } ?? []
        return parse
    }

    static func decodeCategory(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Category? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let display = r.string("display") ?? name
        let color = r.string("color")
        let match = r.object("match").flatMap { decodeMatch($0, d) }
        let isDefault = r.bool("default") ?? false
        if match == nil && !isDefault && !r.has("match") {
            r.report(nil, .invalidValue("a category needs a 'match' or \"default\": true"))
        }
        guard let name, let display else { return nil }
        return Category(name: name, display: display, color: color, match: match, isDefault: isDefault)
    }

    static func decodeTag(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Tag? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let display = r.string("display") ?? name
        let match = r.object("match", required: true).flatMap { decodeMatch($0, d) }
        guard let name, let display, let match else { return nil }
        return Tag(name: name, display: display, match: match)
    }

    static func decodeMatch(_ reader: ObjectReader, _ d: ConfigDiagnostics) -> Match? {
        var r = reader
        defer { r.finish() }
        let field = r.string("field")
        let kinds: [(String, (String) -> Match.Kind)] = [("contains", Match.Kind.contains), ("prefix", Match.Kind.prefix),
                                                         ("regex", Match.Kind.regex)]
        var found: [Match.Kind] = []
        for (key, make) in kinds { if let text = r.string(key) { found.append(make(text)) } }
        guard found.count == 1 else {
            if found.isEmpty && !kinds.contains(where: { r.has($0.0) }) {
                r.report(nil, .invalidValue("needs exactly one of: contains, prefix, regex"))
            } else if found.count > 1 {
                r.report(nil, .invalidValue("give only one of: contains, prefix, regex"))
            }
            return nil
        }
        return Match(field: field, found[0])
    }

    static func decodeIntegration(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Integration? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let prefixes = r.strings("ignorablePrefixes", required: true)
        guard let name, let prefixes else { return nil }
        return Integration(name: name, ignorablePrefixes: prefixes)
    }

    static func decodeFilter(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Condition? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        guard let condition = r.object("exclude", required: true) else { return nil }
        return decodeCondition(condition, d)
    }

    static func decodeCondition(_ reader: ObjectReader, _ d: ConfigDiagnostics) -> Condition? {
        var r = reader
        defer { r.finish() }
        let modes: [(String, (String) -> Condition)] = [
            ("contains", Condition.contains), ("prefix", Condition.prefix), ("tag", Condition.tag),
            ("category", Condition.category), ("integration", Condition.integration),
        ]
        var found: [Condition] = []
        for (key, make) in modes { if let text = r.string(key) { found.append(make(text)) } }
        if found.count != 1 && !(found.isEmpty && modes.contains { r.has($0.0) }) {
            r.report(nil, .invalidValue("needs exactly one of: contains, prefix, tag, category, integration"))
        }
        return found.count == 1 ? found[0] : nil
    }

    static func decodeOutput(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Output? {
        guard var r = ObjectReader(json, at: path, d) else { return nil }
        defer { r.finish() }
        let type = r.string("type", required: true)
        let filePath = r.string("path")
        let format = r.choice("format", Output.Format.self)
        let color = r.choice("color", Output.Color.self) ?? .auto
        let condition = r.object("where").flatMap { decodeCondition($0, d) }
        let destination: Output.Destination
        switch type {
        case "stdout":
            if filePath != nil { r.report("path", .invalidValue("only outputs of type 'file' take a path")) }
            destination = .stdout
        case "file":
            guard let filePath else {
                if !r.has("path") { r.report("path", .missingKey) }
                return nil
            }
            destination = .file(filePath)
        case nil:
            return nil
        case let other?:
            r.report("type", .invalidValue("'\(other)' is not one of: stdout, file"))
            return nil
        }
        var output = Output(destination: destination, format: format ?? (destination == .stdout ? .text : .jsonl),
                            whereCondition: condition)
        output.color = color
        return output
    }
}
