/// Collects the problems found while reading a config, so one `check` reports them all.
public final class ConfigDiagnostics {
    public private(set) var errors: [ConfigError] = []
    public init() {}
    public func report(_ path: JSONPath, _ problem: ConfigError.Problem) { errors.append(ConfigError(path, problem)) }
}

/// Reads one JSON object of the config: typed accessors that report wrong types and missing keys
/// with their path, and `finish()` that reports every key nobody asked for.
struct ObjectReader {
    let path: JSONPath
    private let members: [String: JSONValue]
    private let diagnostics: ConfigDiagnostics
    private var asked: [String] = []

    init?(_ value: JSONValue, at path: JSONPath, _ diagnostics: ConfigDiagnostics) {
        guard case .object(let members) = value else {
            diagnostics.report(path, .wrongType(expected: "an object", found: value.typeName))
            return nil
        }
        self.path = path
        self.members = members
        self.diagnostics = diagnostics
    }

    var keys: [String] { members.keys.sorted() }
    func has(_ key: String) -> Bool { members[key] != nil && members[key] != .null }

    /// The raw value of `key` (marks it known); nil when absent or null.
    mutating func value(_ key: String) -> JSONValue? {
        asked.append(key)
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String, required: Bool = false, nonEmpty: Bool = true) -> String? {
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

    mutating func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            diagnostics.report(path.appending(key), .wrongType(expected: "a boolean", found: value.typeName))
            return nil
        }
        return flag
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
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
    mutating func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) -> E? where E.RawValue == String {
        guard let text = string(key) else { return nil }
        guard let choice = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.report(path.appending(key), .invalidValue("'\(text)' is not one of: \(allowed)"))
            return nil
        }
        return choice
    }

    mutating func object(_ key: String, required: Bool = false) -> ObjectReader? {
        guard let value = value(key) else {
            if required { diagnostics.report(path.appending(key), .missingKey) }
            return nil
        }
        return ObjectReader(value, at: path.appending(key), diagnostics)
    }

    /// The elements of an array with their paths; nil (reported) when the value is not an array.
    mutating func array(_ key: String, required: Bool = false) -> [(path: JSONPath, value: JSONValue)]? {
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

    mutating func strings(_ key: String, required: Bool = false) -> [String]? {
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

    /// Reports every member whose key was never asked for.
    func finish() {
        for key in members.keys.sorted() where !asked.contains(key) {
            diagnostics.report(path.appending(key), .unknownKey(allowed: asked))
        }
    }

    func report(_ key: String?, _ problem: ConfigError.Problem) {
        diagnostics.report(key.map { path.appending($0) } ?? path, problem)
    }
}
