/// Reading `parsers` and the keys `parse` shares with them.
extension SpytailConfig {
    static func decodeParsers(_ top: ObjectReader, _ d: ConfigDiagnostics) -> [Parser] {
        guard let value = top.value("parsers") else { return [] }
        guard case .object(let members) = value else {
            top.report("parsers", .wrongType(expected: "an object (name → parser)", found: value.typeName))
            return []
        }
        return members.keys.sorted().compactMap { name in
            let path = JSONPath.root.appending("parsers").appending(name)
            guard let r = ObjectReader(members[name]!, at: path, d, keys: ConfigKeys.parser) else { return nil }
            return decodeParser(name, r)
        }
    }

    static func decodeParser(_ name: String, _ r: ObjectReader) -> Parser? {
        defer { r.finish() }
        guard let format = r.choice("format", Parser.Format.self) else {
            if !r.has("format") { r.report("format", .missingKey) }
            return nil
        }
        var parser = Parser(name: name, format: format)
        parser.pattern = r.string("pattern")
        if format == .regex && parser.pattern == nil && !r.has("pattern") { r.report("pattern", .missingKey) }
        if format != .regex && parser.pattern != nil { r.report("pattern", .invalidValue("only a regex parser takes a pattern")) }
        if let inner = r.string("inner") {
            if format.container == nil { r.report("inner", .invalidValue("only a cri or docker parser takes an inner parser")) } else { parser.inner = inner }
        }
        for key in ["timestampKey", "messageKey"] {
            guard let text = r.string(key) else { continue }
            if format.container != nil {
                r.report(key, .invalidValue("a \(format.rawValue) parser takes the runtime's time and text; give \(key) to its inner parser"))
            } else if format != .json && format != .logfmt {
                r.report(key, .invalidValue("only json and logfmt parsers take \(key) (a regex names its groups timestamp and message)"))
            } else if FieldPath(text) == nil {
                r.report(key, .invalidValue("'\(text)' is not a field path such as record.time (write a dot inside a key as \\\\.)"))
            } else if key == "timestampKey" {
                parser.timestampKey = text
            } else {
                parser.messageKey = text
            }
        }
        parser.timestampFormat = decodeTimestampFormat(r)
        if format.container != nil && parser.timestampFormat != nil {
            r.report("timestampFormat", .invalidValue("a \(format.rawValue) parser reads the runtime's RFC 3339 time; give timestampFormat to its inner parser"))
        }
        if let types = r.value("types") {
            if case .object(let members) = types {
                if format != .regex && format != .logfmt { r.report("types", .invalidValue("only regex and logfmt parsers take types (JSON values carry their own)")) }
                for (field, value) in members.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let text) = value, let type = Parser.FieldType(rawValue: text) else {
                        r.report(nil, .invalidValue("types.\(field): must be one of \(Parser.FieldType.allCases.map(\.rawValue).joined(separator: ", "))"))
                        continue
                    }
                    parser.types[field] = type
                }
            } else {
                r.report("types", .wrongType(expected: "an object (field → type)", found: types.typeName))
            }
        }
        parser.multiline = decodeMultiline(r)
        parser.maxLineBytes = r.integer("maxLineBytes", in: 64...(1 << 30))
        return parser
    }

    static func decodeTimestampFormat(_ r: ObjectReader) -> TimestampFormat? {
        guard let text = r.string("timestampFormat") else { return nil }
        do throws(StrptimePattern.Problem) {
            return try TimestampFormat(name: text)
        } catch {
            r.report("timestampFormat", .invalidValue(error.message))
            return nil
        }
    }

    static func decodeMultiline(_ r: ObjectReader) -> Multiline? {
        guard let m = r.object("multiline", keys: ConfigKeys.multiline) else { return nil }
        defer { m.finish() }
        guard let continuation = m.string("continuation", required: true) else { return nil }
        var multiline = Multiline(continuation: continuation)
        multiline.idleTimeoutMs = m.integer("idleTimeoutMs", in: 1...3_600_000) ?? 1000
        return multiline
    }
}
