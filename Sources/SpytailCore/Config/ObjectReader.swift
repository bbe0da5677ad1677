/// Reads one JSON object of the config: typed accessors that report wrong types and missing keys
/// with their path, and `finish()` that reports every key outside the object's declared keys.
///
/// The allowed keys are declared up front, not learnt from what was asked: a decoder that gives up
/// early (a required key of the wrong type) must not turn the keys it did not reach into "unknown".
struct ObjectReader {
    let path: JSONPath
    private let members: [String: JSONValue]
    private let diagnostics: ConfigDiagnostics
    private let allowed: [String]

    init?(_ value: JSONValue, at path: JSONPath, _ diagnostics: ConfigDiagnostics, keys: [String]) {
        guard case .object(let members) = value else {
            diagnostics.report(path, .wrongType(expected: "an object", found: value.typeName))
            return nil
        }
        self.path = path
        self.members = members
        self.diagnostics = diagnostics
        self.allowed = keys
    }

    var keys: [String] { members.keys.sorted() }
    func has(_ key: String) -> Bool { members[key] != nil && members[key] != .null }

    /// The raw value of `key`, null included; nil when absent.
    func member(_ key: String) -> JSONValue? {
        precondition(allowed.contains(key), "config decoder asks for '\(key)', not declared at \(path)")
        return members[key]
    }

    /// The raw value of `key`; nil when absent or null.
    func value(_ key: String) -> JSONValue? {
        precondition(allowed.contains(key), "config decoder asks for '\(key)', not declared at \(path)")
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String, required: Bool = false, nonEmpty: Bool = true) -> String? {
        guard let value = value(key) else {
            if required { diagnostics.report(path.appending(key), .missingKey) }
            return nil
        }
        guard case .string(let text) = value else {
            diagnostics.report(path.appending(key), .wrongType(expected: "a string", found: value.typeName))
            return nil
        }
        if nonEmpty && text.isEmpty {
            diagnostics.report(path.appending(key), .invalidValue("must not be empty"))
            return nil
        }
        return text
    }

    func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            diagnostics.report(path.appending(key), .wrongType(expected: "a boolean", found: value.typeName))
            return nil
        }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, number.magnitude < 1e15 else {
            diagnostics.report(path.appending(key), .wrongType(expected: "a whole number", found: value.typeName))
            return nil
        }
        guard range.contains(Int(number)) else {
            diagnostics.report(path.appending(key), .invalidValue("must be between \(range.lowerBound) and \(range.upperBound)"))
            return nil
        }
        return Int(number)
    }

    /// A string that must be one of `E`'s raw values.
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) -> E? where E.RawValue == String {
        guard let text = string(key) else { return nil }
        guard let choice = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.report(path.appending(key), .invalidValue("'\(text)' is not one of: \(allowed)"))
            return nil
        }
        return choice
    }

    func object(_ key: String, keys: [String], required: Bool = false) -> ObjectReader? {
        guard let value = value(key) else {
            if required { diagnostics.report(path.appending(key), .missingKey) }
            return nil
        }
        return ObjectReader(value, at: path.appending(key), diagnostics, keys: keys)
    }

    /// The elements of an array with their paths; nil (reported) when the value is not an array.
    func array(_ key: String, required: Bool = false) -> [(path: JSONPath, value: JSONValue)]? {
        guard let value = value(key) else {
            if required { diagnostics.report(path.appending(key), .missingKey) }
            return nil
        }
        guard case .array(let elements) = value else {
            diagnostics.report(path.appending(key), .wrongType(expected: "an array", found: value.typeName))
            return nil
        }
        return elements.enumerated().map { (path.appending(key).appending($0.offset), $0.element) }
    }

    func strings(_ key: String, required: Bool = false) -> [String]? {
        guard let elements = array(key, required: required) else { return nil }
        return elements.compactMap { element in
            guard case .string(let text) = element.value, !text.isEmpty else {
                let found = element.value == .string("") ? "an empty string" : element.value.typeName
                diagnostics.report(element.path, .wrongType(expected: "a non-empty string", found: found))
                return nil
            }
            return text
        }
    }

    /// Reports every member whose key is not one of the object's keys.
    func finish() {
        for key in members.keys.sorted() where !allowed.contains(key) {
            diagnostics.report(path.appending(key), .unknownKey(allowed: allowed))
        }
    }

    func report(_ key: String?, _ problem: ConfigError.Problem) {
        diagnostics.report(key.map { path.appending($0) } ?? path, problem)
    }
}
