/// A test on one field's value, named by path: `equals`, `in`, `contains`, `prefix`, `regex`, `exists`,
/// and numeric bounds. Strings compare as decoded text; numbers by value, and a text value that is wholly
/// a number (a logfmt `status=500`, an untyped regex group) compares as one; `true`/`false`/`null` also
/// equal their names as text. An object or array is tested as its JSON text.
public struct FieldCondition: @unchecked Sendable, CustomStringConvertible {
    /// A value the config compares with.
    public enum Scalar {
        case text([UInt8], number: Double?)
        case number(Double)
        case bool(Bool)
        case null
    }

    public enum Test {
        case equals(Scalar)
        case oneOf([Scalar])
        case contains(ByteNeedle)
        case prefix(ByteNeedle)
        case regex(Regex)
        case exists(Bool)
        case bounds(SpytailConfig.NumericBounds)
    }

    public let path: FieldPath
    /// Vocabulary index of the path's first component, when a regex group has that name.
    let named: Int?
    let test: Test
    public let description: String

    public init(path: FieldPath, named: Int?, test: Test, description: String) {
        self.path = path
        self.named = named
        self.test = test
        self.description = description
    }

    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        let value = path.value(in: entry, text: text, named: named)
        if case .exists(let wanted) = test { return (value != nil) == wanted }
        guard let value else { return false }
        return Self.holds(test, value, text)
    }

    static func holds(_ test: Test, _ value: FieldValue, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch test {
        case .equals(let scalar): return equals(scalar, value, text)
        case .oneOf(let scalars):
            for scalar in scalars where equals(scalar, value, text) { return true }
            return false
        case .contains(let needle): return value.withText(in: text) { needle.occurs(in: $0) }
        case .prefix(let needle): return value.withText(in: text) { needle.isPrefix(of: $0) }
        case .regex(let regex): return value.withText(in: text) { regex.matches($0) }
        case .exists(let wanted): return wanted
        case .bounds(let bounds): return number(value, text).map(bounds.contains) ?? false
        }
    }

    static func equals(_ scalar: Scalar, _ value: FieldValue, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch scalar {
        case .null: return value.kind == .null
        case .bool(let flag):
            if value.kind == .true || value.kind == .false { return (value.kind == .true) == flag }
            return value.withText(in: text) { $0.elementsEqual(flag ? "true".utf8 : "false".utf8) }
        case .number(let x): return number(value, text) == x
        case .text(let bytes, let asNumber):
            if value.kind == .number, let asNumber { return number(value, text) == asNumber }
            if value.kind == .object || value.kind == .array { return false }
            return value.withText(in: text) { $0.elementsEqual(bytes) }
        }
    }

    /// The value as a number: a JSON number, or text that is wholly one.
    static func number(_ value: FieldValue, _ text: UnsafeBufferPointer<UInt8>) -> Double? {
        switch value.kind {
        case .number, .text: return NumberText.double(UnsafeBufferPointer(rebasing: text[value.range]))
        case .string: return value.withText(in: text) { NumberText.double($0) }
        default: return nil
        }
    }
}

extension FieldValue {
    static let trueText = Array("true".utf8)

    /// Calls `body` with the value as text: a string decoded, a flag as `true`, anything else as written.
    public func withText<R>(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let raw = UnsafeBufferPointer(rebasing: text[range])
        switch kind {
        case .string where escaped: return JSONStringDecoder.decode(raw).withUnsafeBufferPointer(body)
        case .true where raw.isEmpty: return FieldValue.trueText.withUnsafeBufferPointer(body)
        default: return body(raw)
        }
    }

    /// Calls `body` with the key as text (decoded), or the vocabulary's name of a named field.
    public func withKey<R>(in text: UnsafeBufferPointer<UInt8>, names: [[UInt8]], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if name != FieldValue.keyed { return names[name].withUnsafeBufferPointer(body) }
        let raw = UnsafeBufferPointer(rebasing: text[key])
        return keyEscaped ? JSONStringDecoder.decode(raw).withUnsafeBufferPointer(body) : body(raw)
    }
}
