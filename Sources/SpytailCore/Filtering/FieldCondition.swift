import Glibc

/// A test on one field's value, named by path: `equals`, `in`, `contains`, `prefix`, `regex`, `exists`,
/// and numeric bounds. Strings compare as decoded text; numbers by value, and a text value that is wholly
/// a number (a logfmt `status=500`, an untyped regex group) compares as one; `true`/`false`/`null` also
/// equal their names as text. An object or array is tested as its JSON text.
///
/// A class whose parts are read in place: matching it costs no reference counting per line (the values
/// to compare with sit in one byte pool).
public final class FieldCondition: @unchecked Sendable, CustomStringConvertible {
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

    enum Operation { case equals, contains, prefix, regex, exists, bounds }

    /// A compared value, its text in `pool`.
    struct Value {
        enum Kind { case text, number, bool, null }
        var kind: Kind
        var number: Double?
        var flag = false
        var text: Range<Int> = 0..<0
    }

    public let path: FieldPath
    /// Vocabulary index of the path's first component, when a regex group has that name.
    let named: Int?
    let operation: Operation
    let values: [Value]
    let pool: [UInt8]
    let needle: ByteNeedle
    let regex: Regex?
    let wanted: Bool
    let bounds: SpytailConfig.NumericBounds
    public let description: String

    public init(path: FieldPath, named: Int?, test: Test, description: String) {
        self.path = path
        self.named = named
        self.description = description
        var pool: [UInt8] = []
        func value(_ scalar: Scalar) -> Value {
            switch scalar {
            case .text(let bytes, let number):
                pool += bytes
                return Value(kind: .text, number: number, text: (pool.count - bytes.count)..<pool.count)
            case .number(let x): return Value(kind: .number, number: x)
            case .bool(let flag): return Value(kind: .bool, flag: flag)
            case .null: return Value(kind: .null)
            }
        }
        var values: [Value] = [], needle = ByteNeedle(bytes: []), regex: Regex?, wanted = true, bounds = SpytailConfig.NumericBounds()
        switch test {
        case .equals(let scalar): (operation, values) = (.equals, [value(scalar)])
        case .oneOf(let scalars): (operation, values) = (.equals, scalars.map(value))
        case .contains(let n): (operation, needle) = (.contains, n)
        case .prefix(let n): (operation, needle) = (.prefix, n)
        case .regex(let r): (operation, regex) = (.regex, r)
        case .exists(let flag): (operation, wanted) = (.exists, flag)
        case .bounds(let b): (operation, bounds) = (.bounds, b)
        }
        self.values = values
        self.pool = pool
        self.needle = needle
        self.regex = regex
        self.wanted = wanted
        self.bounds = bounds
    }

    /// The test as a byte matcher on the field's raw text, when it is `contains`, `prefix` or `regex`.
    var plainMatcher: ByteMatcher? {
        switch operation {
        case .contains: .contains(needle)
        case .prefix: .prefix(needle)
        case .regex: regex.map { .regex($0) }
        default: nil
        }
    }

    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        let value = path.value(in: entry, text: text, named: named)
        if operation == .exists { return (value != nil) == wanted }
        guard let value else { return false }
        switch operation {
        case .equals:
            return values.withUnsafeBufferPointer { values in
                pool.withUnsafeBufferPointer { pool in
                    for k in values.indices where Self.equals(values[k], pool, value, text) { return true }
                    return false
                }
            }
        case .contains: return value.withText(in: text) { needle.occurs(in: $0) }
        case .prefix: return value.withText(in: text) { needle.isPrefix(of: $0) }
        case .regex: return value.withText(in: text) { regex!.matches($0) }
        case .bounds: return Self.number(value, text).map(bounds.contains) ?? false
        case .exists: return wanted
        }
    }

    @inline(__always)
    static func equals(_ wanted: Value, _ pool: UnsafeBufferPointer<UInt8>, _ value: FieldValue, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch wanted.kind {
        case .null: return value.kind == .null
        case .bool:
            if value.kind == .true || value.kind == .false { return (value.kind == .true) == wanted.flag }
            return value.withText(in: text) { same($0, wanted.flag ? trueBytes : falseBytes) }
        case .number: return number(value, text) == wanted.number
        case .text:
            if value.kind == .number, let x = wanted.number { return number(value, text) == x }
            if value.kind == .object || value.kind == .array { return false }
            return value.withText(in: text) { same($0, UnsafeBufferPointer(rebasing: pool[wanted.text])) }
        }
    }

    static let trueText: StaticString = "true"
    static let falseText: StaticString = "false"
    static var trueBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: trueText.utf8Start, count: trueText.utf8CodeUnitCount) }
    static var falseBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: falseText.utf8Start, count: falseText.utf8CodeUnitCount) }

    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
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
    /// Calls `body` with the value as text: a string decoded, a flag as `true`, anything else as written.
    public func withText<R>(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let raw = UnsafeBufferPointer(rebasing: text[range])
        switch kind {
        case .string where escaped: return JSONStringDecoder.decode(raw).withUnsafeBufferPointer(body)
        case .true where raw.isEmpty: return body(FieldCondition.trueBytes)
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
