import Glibc

/// A test on one field's value, named by path: `equals`, `in`, `contains`, `prefix`, `regex`, `exists`,
/// and numeric bounds. Strings compare as decoded text; numbers by value, and a text value that is wholly
/// a number (a logfmt `status=500`, an untyped regex group) compares as one; `true`/`false`/`null` also
/// equal their names as text. An object or array is tested as its JSON text.
///
/// The class owns the test's bytes (path, compared values, needle) in storage of its own; matching goes
/// through `test`, a plain value of pointers into it, so it costs no reference counting per line.
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

    public let path: FieldPath
    /// Vocabulary index of the path's first component, when a regex group has that name.
    let named: Int?
    /// Kept alive for `test`, which refers to it unretained.
    let regex: Regex?
    /// The test as plain words and pointers into `storage`, itself in `storage`: a probe holds this pointer.
    let test: UnsafePointer<FieldTest>
    /// Owns what `test` points into: the path's bytes and ends, the compared values and their text, the needle.
    private let storage: UnsafeMutableRawPointer
    public let description: String

    public init(path: FieldPath, named: Int?, test: Test, description: String) {
        self.path = path
        self.named = named
        self.description = description
        var pool: [UInt8] = []
        func value(_ scalar: Scalar) -> FieldTest.Value {
            switch scalar {
            case .text(let bytes, let number):
                pool += bytes
                return FieldTest.Value(kind: .text, number: number, text: (pool.count - bytes.count)..<pool.count)
            case .number(let x): return FieldTest.Value(kind: .number, number: x)
            case .bool(let flag): return FieldTest.Value(kind: .bool, flag: flag)
            case .null: return FieldTest.Value(kind: .null)
            }
        }
        let operation: FieldTest.Operation
        var values: [FieldTest.Value] = [], needle: [UInt8] = [], regex: Regex?, wanted = true, bounds = SpytailConfig.NumericBounds()
        switch test {
        case .equals(let scalar): (operation, values) = (.equals, [value(scalar)])
        case .oneOf(let scalars): (operation, values) = (.equals, scalars.map(value))
        case .contains(let n): (operation, needle) = (.contains, n.bytes)
        case .prefix(let n): (operation, needle) = (.prefix, n.bytes)
        case .regex(let r): (operation, regex) = (.regex, r)
        case .exists(let flag): (operation, wanted) = (.exists, flag)
        case .bounds(let b): (operation, bounds) = (.bounds, b)
        }
        self.regex = regex
        // One allocation holds the test and the arrays it reads: the test, ends and values first (aligned), then the bytes.
        let testBytes = (MemoryLayout<FieldTest>.stride + 15) & ~15
        let endsBytes = path.ends.count * MemoryLayout<Int>.stride
        let valuesBytes = values.count * MemoryLayout<FieldTest.Value>.stride
        let total = testBytes + endsBytes + valuesBytes + path.storage.count + pool.count + needle.count
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, total),
                                                       alignment: 16)
        self.storage = storage
        var offset = testBytes
        func place<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let start = (storage + offset).bindMemory(to: T.self, capacity: array.count)
            _ = UnsafeMutableBufferPointer(start: start, count: array.count).initialize(from: array)
            offset += array.count * MemoryLayout<T>.stride
            return UnsafeBufferPointer(start: start, count: array.count)
        }
        let ends = place(path.ends)
        let placedValues = place(values)
        let pathBytes = place(path.storage)
        let placedPool = place(pool)
        let placedNeedle = place(needle)
        let test = storage.bindMemory(to: FieldTest.self, capacity: 1)
        test.initialize(to: FieldTest(pathBytes: pathBytes, pathEnds: ends, named: named, operation: operation, values: placedValues,
                                      pool: placedPool, needle: placedNeedle, regex: regex.map { Unmanaged.passUnretained($0) },
                                      wanted: wanted, bounds: bounds))
        self.test = UnsafePointer(test)
    }

    deinit { storage.deallocate() }  // FieldTest and the arrays hold plain values only: nothing to deinitialize

    /// The test as a byte matcher on the field's raw text, when it is `contains`, `prefix` or `regex`.
    var plainMatcher: ByteMatcher? {
        switch test.pointee.operation {
        case .contains: .contains(ByteNeedle(bytes: Array(test.pointee.needle)))
        case .prefix: .prefix(ByteNeedle(bytes: Array(test.pointee.needle)))
        case .regex: regex.map { .regex($0) }
        default: nil
        }
    }

    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        entry.fields.withUnsafeBufferPointer { FieldTest.matches(test, fields: $0, text: text) }
    }

    static let trueText: StaticString = "true"
    static let falseText: StaticString = "false"
    static var trueBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: trueText.utf8Start, count: trueText.utf8CodeUnitCount) }
    static var falseBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: falseText.utf8Start, count: falseText.utf8CodeUnitCount) }
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
