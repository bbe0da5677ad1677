/// A field named by path: `http.status` is key `status` inside the object at key `http`. A key that
/// holds a dot is written with a backslash before it (`"labels.app\\.kubernetes\\.io/name"` in JSON);
/// a component of digits also indexes an array (`tags.0`).
///
/// The components are kept in one byte array (read in place per line: no reference counting on the path).
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The components' bytes, one after the other.
    let storage: [UInt8]
    /// Where each component ends in `storage`.
    let ends: [Int]
    public let description: String

    /// nil for an empty path or an empty component (`a..b`, a trailing dot).
    public init?(_ text: String) {
        var storage: [UInt8] = [], ends: [Int] = []
        var escaped = false, start = 0
        for b in text.utf8 {
            if escaped { storage.append(b); escaped = false; continue }
            switch b {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "."):
                guard storage.count > start else { return nil }
                ends.append(storage.count)
                start = storage.count
            default: storage.append(b)
            }
        }
        guard !escaped, storage.count > start else { return nil }
        ends.append(storage.count)
        self.storage = storage
        self.ends = ends
        description = text
    }

    /// The components as byte arrays (tests, messages).
    public var components: [[UInt8]] { ends.indices.map { Array(storage[(($0 == 0) ? 0 : ends[$0 - 1])..<ends[$0]]) } }

    /// The first component as text (a regex parser's group name, when the path has one component).
    public var head: String { String(decoding: storage[..<ends[0]], as: UTF8.self) }

    public var depth: Int { ends.count }

    /// The value the path `bytes`/`ends` (its components' bytes and where each ends) names among an entry's
    /// `fields` (storage `text`), or nil when it has none. `named`: the vocabulary index of the first component,
    /// if a regex group has that name. On plain pointers (a `FieldTest`'s, a `FieldPathList`'s): no reference
    /// counting.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ ends: UnsafeBufferPointer<Int>, fields: UnsafeBufferPointer<FieldValue>,
                      text: UnsafeBufferPointer<UInt8>, named: Int?) -> FieldValue? {
        guard let top = topIndex(fields, text, UnsafeBufferPointer(rebasing: bytes[..<ends[0]]), named) else { return nil }
        var value = fields[top]
        var k = 1
        while k < ends.count {
            let name = UnsafeBufferPointer(rebasing: bytes[ends[k - 1]..<ends[k]])
            let next: FieldValue?
            switch value.kind {
            case .object: next = JSONWalker.member(in: text, value.range, named: name)
            case .array: next = index(name).flatMap { JSONWalker.element(in: text, value.range, at: $0) }
            default: next = nil
            }
            guard let next else { return nil }
            value = next
            k += 1
        }
        return value
    }

    /// The index of the field among `fields` named `name` (a key, or the vocabulary's field `named`): the last
    /// one of that name.
    static func topIndex(_ fields: UnsafeBufferPointer<FieldValue>, _ text: UnsafeBufferPointer<UInt8>,
                         _ name: UnsafeBufferPointer<UInt8>, _ named: Int?) -> Int? {
        var k = fields.count - 1
        while k >= 0 {
            let field = fields[k]
            if field.name == FieldValue.keyed ? JSONWalker.keyEquals(field, name, in: text) : field.name == named { return k }
            k -= 1
        }
        return nil
    }

    static func index(_ component: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !component.isEmpty, component.count < 10, component.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return component.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
