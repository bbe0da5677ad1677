/// A problem in a config, with the JSON path of the value at fault.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Sendable, Equatable {
        case invalidJSON(String)
        case wrongType(expected: String, found: String)
        case missingKey
        case unknownKey(allowed: [String])
        case invalidValue(String)
        case invalidRegex(RegexError)
        case duplicateName(String, first: JSONPath)
        case unknownReference(kind: String, name: String, known: [String])
    }

    public let path: JSONPath
    public let problem: Problem

    public init(_ path: JSONPath, _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(reason)" }

    /// The message without the path.
    public var reason: String {
        switch problem {
        case .invalidJSON(let detail): "invalid JSON: \(detail)"
        case .wrongType(let expected, let found): "expected \(expected), found \(found)"
        case .missingKey: "required key is missing"
        case .unknownKey(let allowed): "unknown key; allowed here: \(allowed.sorted().joined(separator: ", "))"
        case .invalidValue(let why): why
        case .invalidRegex(let error): "invalid regex: \(error)"
        case .duplicateName(let name, let first): "duplicate name '\(name)' (first used at \(first))"
        case .unknownReference(let kind, let name, let known):
            "unknown \(kind) '\(name)'" + (known.isEmpty ? "; none is defined" : "; known: \(known.joined(separator: ", "))")
        }
    }
}

/// Every problem found in one config, in the order found. Thrown by decoding and compiling.
public struct ConfigErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [ConfigError]

    public init(_ errors: [ConfigError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
