import CJSONScan

/// Validates one line as a JSON object (RFC 8259) and records its top-level members as fields, with
/// ranges into the line: values are kept as written, so an output copies them instead of re-encoding.
///
/// One pass, no recursion (nesting is tracked in a bit stack, at most `maxDepth` deep), no allocation once
/// warm. Strings are checked for escapes, control characters and UTF-8; numbers for JSON's grammar (`1e400`
/// is valid and kept as written). Duplicate keys are all kept, in order; lookups take the last one, as
/// Python's and JavaScript's parsers do.
///
/// Two scanners accept exactly the same lines. The fast one (`CJSONScan`: a structural pass 64 bytes at a
/// time in SIMD, after simdjson) reads every line; only a line it refuses is read again by the exact one
/// below, a byte at a time, which names the problem and its offset. `JSONScannerAgreementTests` holds the two
/// to the same verdicts and the same members.
public struct JSONLineScanner: Sendable {
    public static let maxDepth = 1000
    /// Bit set per nesting level: 1 = object, 0 = array.
    private var levels = [UInt64](repeating: 0, count: (JSONLineScanner.maxDepth + 63) / 64 + 1)
    /// The fast scanner's members; grown when a line has more.
    private var members = [cjs_member](repeating: cjs_member(), count: 64)

    public init() {}

    /// Scans `line[0..<count]`; on success `fields` holds one field per top-level member (appended).
    public mutating func scanObject(_ p: UnsafePointer<UInt8>, _ n: Int, into fields: inout [FieldValue]) throws(ParseProblem) {
        if scanFast(p, n, into: &fields) { return }
        try scanObjectExactly(p, n, into: &fields)
    }

    /// The fast scanner: true when it accepted the line (its members appended to `fields`).
    mutating func scanFast(_ p: UnsafePointer<UInt8>, _ n: Int, into fields: inout [FieldValue], isa: Int32? = nil) -> Bool {
        while true {
            var firstHigh: Int64 = -1
            let count = members.withUnsafeMutableBufferPointer { members in
                guard let isa else {
                    return cjs_scan_object(p, n, members.baseAddress, members.count, &firstHigh, Int32(Self.maxDepth))
                }
                return cjs_scan_object_isa(isa, p, n, members.baseAddress, members.count, &firstHigh, Int32(Self.maxDepth))
            }
            if count == Int64(CJS_FULL) {
                members += repeatElement(cjs_member(), count: members.count)
                continue
            }
            guard count >= 0 else { return false }
            if firstHigh >= 0 {
                let from = Int(firstHigh)
                guard UTF8Validation.isValid(p + from, n - from) else { return false }
            }
            members.withUnsafeBufferPointer { members in
                fields.reserveCapacity(fields.count + Int(count))
                for m in members[..<Int(count)] { fields.append(FieldValue(m)) }
            }
            return true
        }
    }

    /// The instruction sets the fast scanner can use on this CPU, by name (the tests, the fuzz target and the
    /// benchmark run each).
    public static var instructionSets: [(name: String, isa: Int32)] {
        let supported = cjs_supported_isas()
        return [("AVX-512BW", CJS_ISA_AVX512), ("AVX2", CJS_ISA_AVX2), ("SSE2", CJS_ISA_SSE2), ("byte loop", CJS_ISA_PORTABLE)]
            .filter { supported & $0.1 != 0 }
    }

    /// The exact scanner, a byte at a time: a refusal says what and where.
    mutating func scanObjectExactly(_ p: UnsafePointer<UInt8>, _ n: Int, into fields: inout [FieldValue]) throws(ParseProblem) {
        var i = 0
        Self.skipSpace(p, n, &i)
        guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
        guard p[i] == UInt8(ascii: "{") else { throw ParseProblem(.json, .notAnObject, at: i) }
        var depth = 0
        push(&depth, object: true)
        i &+= 1
        // Top-level member being read.
        var keyStart = 0, keyEnd = 0, keyEscaped = false, valueStart = 0
        var expectKey = true  // right after `{` or `,` in an object
        var allowClose = true // right after `{` or `[`
        scan: while true {
            Self.skipSpace(p, n, &i)
            guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
            let inObject = isObject(depth)
            if allowClose, p[i] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                i &+= 1
                depth &-= 1
                if depth == 0 { break scan }
                if depth == 1 { record(&fields, keyStart, keyEnd, keyEscaped, valueStart, i, kindOf: p[valueStart]) }
                try afterValue(p, n, &i, &depth, &expectKey, &allowClose, &fields, keyStart, keyEnd, keyEscaped, valueStart)
                if depth == 0 { break scan }
                continue
            }
            if inObject && expectKey {
                guard p[i] == UInt8(ascii: "\"") else { throw ParseProblem(.json, .unexpectedByte(p[i]), at: i) }
                let start = i + 1
                let escaped = try Self.scanString(p, n, &i)
                if depth == 1 { (keyStart, keyEnd, keyEscaped) = (start, i - 1, escaped) }
                Self.skipSpace(p, n, &i)
                guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
                guard p[i] == UInt8(ascii: ":") else { throw ParseProblem(.json, .unexpectedByte(p[i]), at: i) }
                i &+= 1
                Self.skipSpace(p, n, &i)
                guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
            }
            // A value.
            if depth == 1 { valueStart = i }
            switch p[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < Self.maxDepth else { throw ParseProblem(.json, .tooDeep, at: i) }
                push(&depth, object: p[i] == UInt8(ascii: "{"))
                i &+= 1
                expectKey = true
                allowClose = true
                continue
            case UInt8(ascii: "\""):
                let escaped = try Self.scanString(p, n, &i)
                if depth == 1 {
                    record(&fields, keyStart, keyEnd, keyEscaped, valueStart, i, kindOf: p[valueStart])
                    fields[fields.count - 1].escaped = escaped
                }
                try afterValue(p, n, &i, &depth, &expectKey, &allowClose, &fields, keyStart, keyEnd, keyEscaped, valueStart)
                if depth == 0 { break scan }
                continue
            case UInt8(ascii: "t"): try Self.literal(p, n, &i, "true")
            case UInt8(ascii: "f"): try Self.literal(p, n, &i, "false")
            case UInt8(ascii: "n"): try Self.literal(p, n, &i, "null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try Self.scanNumber(p, n, &i)
            default: throw ParseProblem(.json, .unexpectedByte(p[i]), at: i)
            }
            if depth == 1 { record(&fields, keyStart, keyEnd, keyEscaped, valueStart, i, kindOf: p[valueStart]) }
            try afterValue(p, n, &i, &depth, &expectKey, &allowClose, &fields, keyStart, keyEnd, keyEscaped, valueStart)
            if depth == 0 { break scan }
        }
        Self.skipSpace(p, n, &i)
        if i < n { throw ParseProblem(.json, .trailingBytes, at: i) }
    }

    /// After a value: `,` goes on in the same container, a closing bracket ends it (and completes the
    /// value that container was).
    @inline(__always)
    private mutating func afterValue(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ depth: inout Int, _ expectKey: inout Bool,
                                     _ allowClose: inout Bool, _ fields: inout [FieldValue],
                                     _ keyStart: Int, _ keyEnd: Int, _ keyEscaped: Bool, _ valueStart: Int) throws(ParseProblem) {
        while true {
            Self.skipSpace(p, n, &i)
            guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
            let inObject = isObject(depth)
            if p[i] == UInt8(ascii: ",") {
                i &+= 1
                expectKey = inObject
                allowClose = false
                return
            }
            guard p[i] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                throw ParseProblem(.json, .unexpectedByte(p[i]), at: i)
            }
            i &+= 1
            depth &-= 1
            if depth == 0 { return }
            if depth == 1 { record(&fields, keyStart, keyEnd, keyEscaped, valueStart, i, kindOf: p[valueStart]) }
        }
    }

    @inline(__always)
    private func record(_ fields: inout [FieldValue], _ keyStart: Int, _ keyEnd: Int, _ keyEscaped: Bool,
                        _ valueStart: Int, _ valueEnd: Int, kindOf first: UInt8) {
        var field = FieldValue(key: keyStart..<keyEnd, keyEscaped: keyEscaped, range: valueStart..<valueEnd, kind: Self.kind(of: first))
        if field.kind == .string { field.range = (valueStart + 1)..<(valueEnd - 1) }
        fields.append(field)
    }

    @inline(__always)
    private mutating func push(_ depth: inout Int, object: Bool) {
        let word = depth >> 6, bit = UInt64(1) << UInt64(depth & 63)
        if object { levels[word] |= bit } else { levels[word] &= ~bit }
        depth &+= 1
    }

    @inline(__always)
    private func isObject(_ depth: Int) -> Bool {
        let level = depth &- 1
        return levels[level >> 6] & (UInt64(1) << UInt64(level & 63)) != 0
    }

    /// The kind of a JSON value from its first byte.
    @inline(__always)
    public static func kind(of first: UInt8) -> FieldValue.Kind {
        switch first {
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "t"): .true
        case UInt8(ascii: "f"): .false
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    @inline(__always)
    static func skipSpace(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) {
        while i < n {
            let b = p[i]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { return }
            i &+= 1
        }
    }

    static func literal(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ word: StaticString) throws(ParseProblem) {
        let count = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<count {
            guard i + k < n else { throw ParseProblem(.json, .unexpectedEnd, at: i + k) }
            guard p[i + k] == w[k] else { throw ParseProblem(.json, .unexpectedByte(p[i + k]), at: i + k) }
        }
        i &+= count
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func scanNumber(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) throws(ParseProblem) {
        let start = i
        @inline(__always) func digit(_ k: Int) -> Bool { k < n && p[k] &- UInt8(ascii: "0") < 10 }
        if p[i] == UInt8(ascii: "-") { i &+= 1 }
        guard digit(i) else { throw ParseProblem(.json, .badNumber, at: start) }
        if p[i] == UInt8(ascii: "0") { i &+= 1 } else { while digit(i) { i &+= 1 } }
        if i < n, p[i] == UInt8(ascii: ".") {
            i &+= 1
            guard digit(i) else { throw ParseProblem(.json, .badNumber, at: start) }
            while digit(i) { i &+= 1 }
        }
        if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
            i &+= 1
            if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i &+= 1 }
            guard digit(i) else { throw ParseProblem(.json, .badNumber, at: start) }
            while digit(i) { i &+= 1 }
        }
    }

    /// Whether `raw` is exactly one JSON number (a typed field written out as one must be).
    static func isNumber(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = raw.baseAddress, !raw.isEmpty else { return false }
        var i = 0
        do throws(ParseProblem) {
            try scanNumber(base, raw.count, &i)
        } catch {
            return false
        }
        return i == raw.count
    }

    /// Scans the string starting at the quote `p[i]`; leaves `i` after its closing quote. Returns whether
    /// it holds an escape.
    @inline(__always)
    static func scanString(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) throws(ParseProblem) -> Bool {
        i &+= 1
        var escaped = false
        while true {
            // Eight bytes at a time to the first that is not plain (a quote, a backslash, a control byte or a
            // non-ASCII byte): the lowest flagged byte of a word always is one. The last few bytes one by one.
            while true {
                if i + 8 <= n {
                    let m = Self.specialBytes(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                    if m != 0 {
                        i &+= m.trailingZeroBitCount >> 3
                        break
                    }
                    i &+= 8
                } else {
                    while i < n, Self.isPlain(p[i]) { i &+= 1 }
                    break
                }
            }
            guard i < n else { throw ParseProblem(.json, .unexpectedEnd, at: i) }
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i &+= 1
                return escaped
            } else if b == UInt8(ascii: "\\") {
                escaped = true
                guard i + 1 < n else { throw ParseProblem(.json, .unexpectedEnd, at: i + 1) }
                switch p[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i &+= 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= n else { throw ParseProblem(.json, .unexpectedEnd, at: n) }
                    for k in (i + 2)..<(i + 6) where JSONStringDecoder.hexValue(p[k]) == nil {
                        throw ParseProblem(.json, .badEscape, at: i)
                    }
                    i &+= 6
                default:
                    throw ParseProblem(.json, .badEscape, at: i)
                }
            } else if b < 0x20 {
                throw ParseProblem(.json, .controlCharacter, at: i)
            } else if b >= 0x80 {
                let length = UTF8Validation.sequenceLength(p + i, available: n - i)
                guard length > 0 else { throw ParseProblem(.json, .invalidUTF8, at: i) }
                i &+= length
            } else {
                i &+= 1
            }
        }
    }

    /// A byte a string holds as it is: not a quote, a backslash, a control byte or non-ASCII.
    @inline(__always)
    static func isPlain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x80 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") }

    // Eight bytes in a word (SWAR): each function sets the high bit of a byte it flags. Only bytes above a flagged
    // one can be flagged falsely (a borrow), so the lowest flagged byte of a word always is a real one.
    static var ones: UInt64 { 0x0101_0101_0101_0101 }
    static var high: UInt64 { 0x8080_8080_8080_8080 }

    /// Flags the zero bytes of `x`.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }

    /// Flags the bytes of `w` that are `"`, `\`, below 0x20 or at/above 0x80.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        (w & high) | quoteOrBackslash(w) | ((w &- ones &* 0x20) & ~w & high)
    }

    /// Flags the bytes of `w` that are `"` or `\` (a validated string's only stops).
    @inline(__always)
    static func quoteOrBackslash(_ w: UInt64) -> UInt64 { zeroBytes(w ^ (ones &* 0x22)) | zeroBytes(w ^ (ones &* 0x5C)) }
}

extension FieldValue {
    /// A member as `CJSONScan` writes it (its kind is `Kind`'s raw value).
    init(_ m: cjs_member) {
        self.init(key: Int(m.key_start)..<Int(m.key_end), keyEscaped: m.key_escaped != 0,
                  range: Int(m.value_start)..<Int(m.value_end), kind: Kind(rawValue: m.kind)!)
        escaped = m.value_escaped != 0
    }
}
