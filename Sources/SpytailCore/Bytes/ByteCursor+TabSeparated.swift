/// ClickHouse's `TabSeparated` escaping on bytes: a backslash before `\`, `'` (array elements are quoted
/// with it) and the control bytes written as letters (`\t`, `\n`, `\r`, `\0`, `\b`, `\f`). Invalid UTF-8
/// becomes U+FFFD as in the JSON formats, so a row is the same whichever format carried it.
extension ByteCursor {
    /// Room that escaping `count` bytes can need at most (U+FFFD for one invalid byte).
    @inline(__always)
    public static func tabSeparatedRoom(_ count: Int) -> Int { count * 3 }

    /// The bytes of `range` in `text` as a TabSeparated field, or `\N` (null) when there is no range.
    @inline(__always)
    public mutating func appendTabSeparatedField(_ range: Range<Int>?, in text: UnsafeBufferPointer<UInt8>) {
        if let range { appendTabSeparatedEscaped(UnsafeBufferPointer(rebasing: text[range])) } else { append("\\N") }
    }

    public mutating func appendTabSeparatedEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var runStart = 0
        var i = 0
        while i < n {
            let b = base[i]
            if b >= 0x20 && b != 0x5C && b != 0x27 && b < 0x80 { i += 1; continue }
            if b >= 0x80 {
                let length = UTF8Validation.sequenceLength(base + i, available: n - i)
                if length > 0 { i += length; continue }
            }
            append(UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            if b >= 0x80 {
                append(0xEF); append(0xBF); append(0xBD)
            } else if let letter = Self.tabSeparatedLetter(b) {
                append(0x5C); append(letter)
            } else {
                append(b)  // another control byte: taken as it is
            }
            i += 1
            runStart = i
        }
        append(UnsafeBufferPointer(start: base + runStart, count: n - runStart))
    }

    /// `bytes` as the content of a JSON string, written as a TabSeparated field (the `fields` column's JSON
    /// text): `appendJSONEscaped`'s escapes with their backslash escaped once more for TabSeparated, and `'`
    /// escaped. At most 7 bytes per byte (`\\u001f`); byte by byte, for short values.
    public mutating func appendJSONEscapedInTabSeparated(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var i = 0
        while i < bytes.count {
            let b = base[i]
            if b >= 0x80 {
                i += appendUTF8Sequence(base + i, available: bytes.count - i)
                continue
            }
            switch b {
            case 0x22: append("\\\\\"")          // "  → JSON \"  → TSV \\"
            case 0x5C: append("\\\\\\\\")        // \  → JSON \\  → TSV \\\\
            case 0x27: append("\\'")              // '  → JSON '   → TSV \'
            case 0x0A: append("\\\\n")
            case 0x0D: append("\\\\r")
            case 0x09: append("\\\\t")
            case 0x08: append("\\\\b")
            case 0x0C: append("\\\\f")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                append("\\\\u00")
                append(hex.utf8Start[Int(b >> 4)])
                append(hex.utf8Start[Int(b & 0xF)])
            default: append(b)
            }
            i += 1
        }
    }

    @inline(__always)
    static func tabSeparatedLetter(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x5C: 0x5C
        case 0x27: 0x27
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x00: UInt8(ascii: "0")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: nil
        }
    }
}
