import CJSONScan

/// JSON string escaping on bytes. Invalid UTF-8 becomes U+FFFD so the output is always valid JSON;
/// every control character is escaped; valid multi-byte sequences are copied as they are.
/// Clean runs are found and copied by the C pass `cjs_copy_clean` (SSE2 on x86-64).
extension ByteCursor {
    /// Room that escaping `count` bytes can need at most (`\u00XX` for one byte).
    @inline(__always)
    public static func jsonRoom(_ count: Int) -> Int { count * 6 }

    public mutating func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        appendJSONEscaped(bytes)
        append(UInt8(ascii: "\""))
    }

    /// The bytes of `range` in `text` as a JSON string, or `null` when there is no range (no timestamp, no detail).
    @inline(__always)
    public mutating func appendJSONString(_ range: Range<Int>?, in text: UnsafeBufferPointer<UInt8>) {
        if let range { appendJSONString(UnsafeBufferPointer(rebasing: text[range])) } else { append("null") }
    }

    public mutating func appendJSONEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var i = 0
        while i < n {
            // The clean run up to the next byte that needs a look, copied by the C pass (SSE2; eight bytes
            // at a time in Swift cost W2 2 % more CPU in all). It writes within the next `n - i` bytes, and
            // the reserved room holds 6 bytes for each.
            assert(position + (n - i) <= end, "ByteCursor: reserved room exceeded")
            let clean = cjs_copy_clean(base + i, n - i, position)
            position += clean
            i += clean
            guard i < n else { break }
            // A byte that needs a look.
            let b = base[i]
            if b >= 0x80 {
                i += appendUTF8Sequence(base + i, available: n - i)
                continue
            }
            appendEscape(for: b)
            i += 1
        }
    }

    /// `bytes` as the content of a JSON string that is itself inside a JSON string (JSON text stored as a
    /// string column): every escape of `appendJSONEscaped` gets its backslash escaped once more. At most
    /// 7 bytes per byte (`\\u001f`). Meant for short values (fields): it goes byte by byte.
    public mutating func appendJSONEscapedTwice(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x80 {
                i += appendUTF8Sequence(bytes.baseAddress! + i, available: bytes.count - i)
                continue
            }
            if b >= 0x20 && b != 0x22 && b != 0x5C {
                append(b)
            } else {
                append(0x5C)  // the inner escape's backslash, escaped for the outer string
                appendEscape(for: b)
                if b == 0x22 || b == 0x5C {
                    // inner `\"` / `\\`: its second character needs the outer escape as well
                    position -= 1
                    append(0x5C)
                    append(b)
                }
            }
            i += 1
        }
    }

    private mutating func appendEscape(for b: UInt8) {
        append(0x5C)
        switch b {
        case 0x22: append(0x22)
        case 0x5C: append(0x5C)
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            append(UInt8(ascii: "u")); append(0x30); append(0x30)
            append(hex.utf8Start[Int(b >> 4)])
            append(hex.utf8Start[Int(b & 0xF)])
        }
    }
}

extension ByteCursor {
    /// The names of `tags` (pre-rendered, one per tag index), comma-separated: the tag lists of the jsonl,
    /// ClickHouse and syslog records.
    @inline(__always)
    public mutating func append(tags: TagSet, names: [[UInt8]]) {
        var bits = tags.bits
        var first = true
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            if !first { append(UInt8(ascii: ",")) }
            append(names[index])
            first = false
        }
    }

    /// A record's id: the file's fingerprint in its epoch (16 hex digits), `-`, the entry's offset.
    @inline(__always)
    public mutating func appendID(of entry: borrowing SpyEntry) {
        append(hex: entry.file.idFingerprint.value)
        append(UInt8(ascii: "-"))
        append(decimal: entry.offset)
    }
}
