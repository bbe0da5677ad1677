/// Reading conditions: one grammar for filters, outputs' `where` and rules' `match`.
extension SpytailConfig {
    static let conditionModes = ["contains", "prefix", "regex", "tag", "category", "integration", "source", "all", "any", "not"]
    static let fieldTests = ["equals", "in", "contains", "prefix", "regex", "exists", "gt", "gte", "lt", "lte"]
    static let boundKeys = ["gt", "gte", "lt", "lte"]

    /// Decodes one condition object. `inRule`: a category's or tag's `match`, which cannot test tags or
    /// categories (the rules decide them).
    static func decodeCondition(_ reader: ObjectReader, _ d: ConfigDiagnostics, inRule: Bool) -> Condition? {
        let r = reader
        defer { r.finish() }
        if r.member("field") != nil { return decodeFieldCondition(r, d) }
        if let stray = ["equals", "in", "exists", "gt", "gte", "lt", "lte"].first(where: { r.member($0) != nil }) {
            r.report(stray, .invalidValue("'\(stray)' tests a field: add \"field\": \"<path>\" beside it"))
            return nil
        }
        let present = conditionModes.filter { r.member($0) != nil }
        guard present.count == 1 else {
            let all = conditionModes + ["field"]
            r.report(nil, .invalidValue(present.isEmpty ? "needs one of: \(all.joined(separator: ", "))"
                                            : "give only one of: \(present.joined(separator: ", "))"))
            return nil
        }
        let mode = present[0]
        switch mode {
        case "all", "any":
            guard let elements = r.array(mode) else { return nil }
            if elements.isEmpty { r.report(mode, .invalidValue("needs at least one condition")) }
            let parts = elements.compactMap { element in
                ObjectReader(element.value, at: element.path, d, keys: ConfigKeys.condition).flatMap { decodeCondition($0, d, inRule: inRule) }
            }
            guard parts.count == elements.count, !parts.isEmpty else { return nil }
            return mode == "all" ? .all(parts) : .any(parts)
        case "not":
            return r.object("not", keys: ConfigKeys.condition).flatMap { decodeCondition($0, d, inRule: inRule) }.map { .not($0) }
        case "tag" where inRule, "category" where inRule:
            r.report(mode, .invalidValue("a category's or tag's match cannot test \(mode == "tag" ? "tags" : "categories"): these rules decide them"))
            return nil
        default:
            guard let text = r.string(mode) else { return nil }
            return simpleCondition(mode, text)
        }
    }

    /// A condition of one mode that takes a text (`contains`, `prefix`, `regex`, `tag`, `category`,
    /// `integration`, `source`); nil for another mode. The config's and a viewer's `MODE:VALUE` alike.
    static func simpleCondition(_ mode: String, _ text: String) -> Condition? {
        switch mode {
        case "contains": .contains(text)
        case "prefix": .prefix(text)
        case "regex": .regex(text)
        case "tag": .tag(text)
        case "category": .category(text)
        case "integration": .integration(text)
        case "source": .source(text)
        default: nil
        }
    }

    static func decodeFieldCondition(_ r: ObjectReader, _ d: ConfigDiagnostics) -> Condition? {
        guard let path = r.string("field") else { return nil }
        if FieldPath(path) == nil {
            r.report("field", .invalidValue("'\(path)' is not a field path such as http.status (write a dot inside a key as \\\\.)"))
        }
        if let other = conditionModes.first(where: { r.member($0) != nil && !fieldTests.contains($0) }) {
            r.report(other, .invalidValue("a field condition tests the field only; put '\(other)' in a condition of its own (inside \"all\" or \"any\")"))
            return nil
        }
        let tests = fieldTests.filter { r.member($0) != nil }
        let bounds = tests.filter { boundKeys.contains($0) }
        guard !tests.isEmpty, bounds.count == tests.count || tests.count == 1 else {
            r.report(nil, .invalidValue(tests.isEmpty
                ? "needs one of: \(fieldTests.joined(separator: ", ")) (gt/gte/lt/lte may be combined)"
                : "give only one of: \(tests.joined(separator: ", ")) (only gt/gte/lt/lte combine)"))
            return nil
        }
        guard FieldPath(path) != nil else { return nil }
        if !bounds.isEmpty {
            var b = NumericBounds()
            for key in bounds {
                guard case .number(let x) = r.member(key)! else {
                    r.report(key, .wrongType(expected: "a number", found: r.member(key)!.typeName))
                    return nil
                }
                switch key {
                case "gt": b.gt = x
                case "gte": b.gte = x
                case "lt": b.lt = x
                default: b.lte = x
                }
            }
            return .field(path, .bounds(b))
        }
        let test = tests[0]
        let value = r.member(test)!
        switch test {
        case "equals":
            guard value.isScalar else { r.report(test, .wrongType(expected: "a string, number, boolean or null", found: value.typeName)); return nil }
            return .field(path, .equals(value))
        case "in":
            guard case .array(let values) = value, !values.isEmpty, values.allSatisfy(\.isScalar) else {
                r.report(test, .wrongType(expected: "a non-empty array of strings, numbers, booleans or null", found: value.typeName))
                return nil
            }
            return .field(path, .oneOf(values))
        case "exists":
            return r.bool(test).map { .field(path, .exists($0)) }
        default:
            guard let text = r.string(test) else { return nil }
            switch test {
            case "contains": return .field(path, .contains(text))
            case "prefix": return .field(path, .prefix(text))
            default: return .field(path, .regex(text))
            }
        }
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .null, .bool, .number, .string: true
        case .array, .object: false
        }
    }
}
