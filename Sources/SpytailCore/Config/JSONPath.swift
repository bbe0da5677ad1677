/// Where in the config a value sits, printed the way users write it: `parse.tags[2].match.regex`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    public var description: String {
        guard !components.isEmpty else { return "(top level)" }
        var out = ""
        for component in components {
            switch component {
            case .key(let key): out += out.isEmpty ? key : ".\(key)"
            case .index(let index): out += "[\(index)]"
            }
        }
        return out
    }
}

extension JSONPath: ExpressibleByStringLiteral {
    /// Parses `a.b[2].c` (for tests and for naming paths in code).
    public init(stringLiteral text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".") {
            var name = Substring(part)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "["), name.hasSuffix("]") {
                indices.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { components.append(.key(String(name))) }
            components += indices.map(Component.index)
        }
        self.init(components)
    }
}
