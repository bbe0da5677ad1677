import Glibc

/// A `FieldCondition`'s test as plain words and pointers into storage the condition owns: copied and matched
/// on the per-line path without reference counting. Valid while its `FieldCondition` lives.
struct FieldTest: @unchecked Sendable {
    enum Operation { case equals, contains, prefix, regex, exists, bounds }

    /// A compared value, its text (if any) in `pool`.
    struct Value {
        enum Kind { case text, number, bool, null }
        var kind: Kind
        var number: Double?
        var flag = false
        var text: Range<Int> = 0..<0
    }

    let pathBytes: UnsafeBufferPointer<UInt8>
    let pathEnds: UnsafeBufferPointer<Int>
    let named: Int?
    let operation: Operation
    let values: UnsafeBufferPointer<Value>
    let pool: UnsafeBufferPointer<UInt8>
    let needle: UnsafeBufferPointer<UInt8>
    let regex: Unmanaged<Regex>?
    let wanted: Bool
    let bounds: SpytailConfig.NumericBounds

    /// Whether the test holds for an entry whose fields are `fields` and storage `text`. Static on a pointer:
    /// calling a method on `pointee` copied the whole test first.
    static func matches(_ test: UnsafePointer<FieldTest>, fields: UnsafeBufferPointer<FieldValue>, text: UnsafeBufferPointer<UInt8>) -> Bool {
        holds(test, for: lookup(test, fields: fields, text: text), text: text)
    }

    /// The value the test's path names among `fields`, if any.
    @inline(__always)
    static func lookup(_ test: UnsafePointer<FieldTest>, fields: UnsafeBufferPointer<FieldValue>, text: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        FieldPath.value(test.pointee.pathBytes, test.pointee.pathEnds, fields: fields, text: text, named: test.pointee.named)
    }

    /// Whether two tests name the same field (a rule list looks it up once for a run of such tests).
    static func samePath(_ a: UnsafePointer<FieldTest>, _ b: UnsafePointer<FieldTest>) -> Bool {
        a.pointee.named == b.pointee.named && a.pointee.pathEnds.elementsEqual(b.pointee.pathEnds)
            && a.pointee.pathBytes.elementsEqual(b.pointee.pathBytes)
    }

    /// Whether the test holds for `value`, the field its path names (nil: the entry has none).
    static func holds(_ test: UnsafePointer<FieldTest>, for value: FieldValue?, text: UnsafeBufferPointer<UInt8>) -> Bool {
        let operation = test.pointee.operation
        if operation == .exists { return (value != nil) == test.pointee.wanted }
        guard let value else { return false }
        switch operation {
        case .equals:
            let (values, pool) = (test.pointee.values, test.pointee.pool)
            for k in values.indices where equals(values[k], pool, value, text) { return true }
            return false
        case .contains: return value.withText(in: text) { ByteNeedle.occurs(test.pointee.needle, in: $0) }
        case .prefix: return value.withText(in: text) { ByteNeedle.isPrefix(test.pointee.needle, of: $0) }
        case .regex:
            return value.withText(in: text) { haystack in test.pointee.regex.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.matches(haystack) } }
        case .bounds: return number(value, text).map(test.pointee.bounds.contains) ?? false
        case .exists: return test.pointee.wanted
        }
    }

    @inline(__always)
    static func equals(_ wanted: Value, _ pool: UnsafeBufferPointer<UInt8>, _ value: FieldValue, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch wanted.kind {
        case .null: return value.kind == .null
        case .bool:
            if value.kind == .true || value.kind == .false { return (value.kind == .true) == wanted.flag }
            return value.withText(in: text) { same($0, wanted.flag ? FieldCondition.trueBytes : FieldCondition.falseBytes) }
        case .number: return number(value, text) == wanted.number
        case .text:
            if value.kind == .number, let x = wanted.number { return number(value, text) == x }
            if value.kind == .object || value.kind == .array { return false }
            return value.withText(in: text) { same($0, UnsafeBufferPointer(rebasing: pool[wanted.text])) }
        }
    }

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
