/// A field named by path: `http.status` is key `status` inside the object at key `http`. A key that
/// holds a dot is written with a backslash before it (`"labels.app\\.kubernetes\\.io/name"` in JSON);
/// a component of digits also indexes an array (`tags.0`).
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    public let components: [[UInt8]]
    public let description: String

    /// nil for an empty path or an empty component (`a..b`, a trailing dot).
    public init?(_ text: String) {
        var components: [[UInt8]] = [], current: [UInt8] = []
        var escaped = false
        for b in text.utf8 {
            if escaped { current.append(b); escaped = false; continue }
            switch b {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "."):
                guard !current.isEmpty else { return nil }
                components.append(current)
                current = []
            default: current.append(b)
            }
        }
        guard !escaped, !current.isEmpty else { return nil }
        components.append(current)
        self.components = components
        description = text
    }

    /// The first component as text (a regex parser's group name, when the path has one component).
    public var head: String { String(decoding: components[0], as: UTF8.self) }

    /// The value this path names in `entry` (whose storage is `text`), or nil when it has none.
    /// `named`: the vocabulary index of the first component, if a regex group has that name.
    public func value(in entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, named: Int?) -> FieldValue? {
        guard var value = Self.top(entry, text, components[0], named) else { return nil }
        for component in components.dropFirst() {
            let next: FieldValue? = component.withUnsafeBufferPointer { name in
                switch value.kind {
                case .object: return JSONWalker.member(in: text, value.range, named: name)
                case .array: return Self.index(name).flatMap { JSONWalker.element(in: text, value.range, at: $0) }
                default: return nil
                }
            }
            guard let next else { return nil }
            value = next
        }
        return value
    }

    /// The entry's own field `name`: the last one of that name.
    static func top(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ name: [UInt8], _ named: Int?) -> FieldValue? {
        entry.fields.withUnsafeBufferPointer { fields in
            name.withUnsafeBufferPointer { name in
                var k = fields.count - 1
                while k >= 0 {
                    let field = fields[k]
                    if field.name == FieldValue.keyed {
                        if JSONWalker.keyEquals(field, name, in: text) { return field }
                    } else if field.name == named {
                        return field
                    }
                    k -= 1
                }
                return nil
            }
        }
    }

    static func index(_ component: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !component.isEmpty, component.count < 10, component.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return component.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
