import CJSONScan
import Glibc

/// Reads inside a JSON object or array that `JSONLineScanner` already validated: its members or elements,
/// as fields with ranges into the same text. Used by field paths (`http.status`) and by formats that
/// flatten nested values; nothing is decoded unless a key holds an escape.
public enum JSONWalker {
    /// Calls `body` with each member of the object (or element of the array) at `range`, in order, until it
    /// returns false. A member's field has its key set (`keyIsJSON`); an element's has an empty key.
    public static func forEach(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (FieldValue) -> Bool) {
        guard let p = text.baseAddress, range.count >= 2 else { return }
        let isObject = p[range.lowerBound] == UInt8(ascii: "{")
        var i = range.lowerBound + 1
        let n = range.upperBound - 1
        while true {
            skipSpace(p, n, &i)
            guard i < n else { return }
            var key = 0..<0, keyEscaped = false
            if isObject {
                let start = i + 1
                keyEscaped = skipString(p, n, &i)
                key = start..<(i - 1)
                skipSpace(p, n, &i)
                i += 1  // ':'
                skipSpace(p, n, &i)
            }
            let valueStart = i
            let kind = JSONLineScanner.kind(of: p[i])
            var field: FieldValue
            switch kind {
            case .string:
                let escaped = skipString(p, n, &i)
                field = FieldValue(key: key, keyEscaped: keyEscaped, range: (valueStart + 1)..<(i - 1), kind: .string)
                field.escaped = escaped
            case .object, .array:
                skipContainer(p, n, &i)
                field = FieldValue(key: key, keyEscaped: keyEscaped, range: valueStart..<i, kind: kind)
            default:
                while i < n, !isDelimiter(p[i]) { i += 1 }
                field = FieldValue(key: key, keyEscaped: keyEscaped, range: valueStart..<i, kind: kind)
            }
            if !isObject { field.key = 0..<0 }
            guard body(field) else { return }
            skipSpace(p, n, &i)
            i += 1  // ',' (or the end)
        }
    }

    /// The member named `key` (decoded bytes) of the object at `range`; the last one if the key repeats.
    /// Looked for in C (`cjs_find_member`, strings skipped 16 bytes at a time); here only when a key there
    /// holds an escape.
    public static func member(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, named key: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        guard let p = text.baseAddress else { return nil }
        // An empty key may come without an address: the Swift walk takes it.
        guard let name = key.baseAddress else { return memberDecodingKeys(in: text, range, named: key) }
        var m = cjs_member()
        switch cjs_find_member(p, range.lowerBound, range.upperBound, name, key.count, &m) {
        case 0: return nil
        case 1: return FieldValue(m)
        default: return memberDecodingKeys(in: text, range, named: key)
        }
    }

    /// `member` when some key holds an escape: each key decoded to compare.
    static func memberDecodingKeys(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, named key: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        var found: FieldValue?
        forEach(in: text, range) { field in
            if keyEquals(field, key, in: text) { found = field }
            return true
        }
        return found
    }

    /// Element `index` of the array at `range`.
    public static func element(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at index: Int) -> FieldValue? {
        var found: FieldValue?, k = 0
        forEach(in: text, range) { field in
            if k == index { found = field; return false }
            k += 1
            return true
        }
        return found
    }

    /// Whether a keyed field's key reads as `name` (decoded bytes).
    @inline(__always)
    public static func keyEquals(_ field: FieldValue, _ name: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        if !field.keyEscaped {
            // Length, then first byte, in registers: most keys differ there, and a call to memcmp per key was
            // a tenth of W3's field lookups.
            let count = field.key.count
            guard count == name.count else { return false }
            guard count > 0 else { return true }
            let key = text.baseAddress! + field.key.lowerBound
            return key[0] == name[0] && (count == 1 || memcmp(key + 1, name.baseAddress! + 1, count - 1) == 0)
        }
        let key = UnsafeBufferPointer(rebasing: text[field.key])
        return JSONStringDecoder.decode(key).elementsEqual(name)
    }

    @inline(__always)
    static func isDelimiter(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    @inline(__always)
    static func skipSpace(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) {
        while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
    }

    /// Skips a validated string from its opening quote; returns whether it holds an escape.
    static func skipString(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> Bool {
        i += 1
        var escaped = false
        while i < n {
            // Eight bytes at a time to the next quote or backslash (the lowest flagged byte is one).
            while i + 8 <= n {
                let m = JSONLineScanner.quoteOrBackslash(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                if m != 0 {
                    i += m.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < n else { break }
            switch p[i] {
            case UInt8(ascii: "\""): i += 1; return escaped
            case UInt8(ascii: "\\"): escaped = true; i += 2
            default: i += 1
            }
        }
        return escaped
    }

    /// Skips a validated object or array from its opening bracket.
    static func skipContainer(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) {
        var depth = 0
        while i < n {
            switch p[i] {
            case UInt8(ascii: "\""): _ = skipString(p, n, &i); continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { i += 1; return }
            default: break
            }
            i += 1
        }
    }
}
