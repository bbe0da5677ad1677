import Glibc

/// Decodes JSON string content (`a\"b\u00e9`) to UTF-8 bytes. The content was validated by
/// `JSONLineScanner`; a lone surrogate escape (`\ud800`) becomes U+FFFD.
public enum JSONStringDecoder {
    @inline(__always)
    public static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Appends the decoded form of `content` to `out`.
    public static func decode(_ content: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let base = content.baseAddress else { return }
        var i = 0
        let n = content.count
        while i < n {
            // The run up to the next backslash is copied as it is, in one piece (byte by byte, each append
            // checked the array's uniqueness).
            let next = memchr(base + i, Int32(UInt8(ascii: "\\")), n - i).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? n
            if next > i { out.append(contentsOf: UnsafeBufferPointer(start: base + i, count: next - i)) }
            i = next
            guard i + 1 < n else {
                if i < n { out.append(content[i]) }  // a lone backslash at the end, kept
                break
            }
            let e = content[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(content, i) else { out.append(contentsOf: UTF8Validation.replacementCharacter); continue }
                i += 4
                var scalar = UInt32(unit)
                if (0xD800...0xDBFF).contains(unit) {
                    if i + 6 <= n, content[i] == UInt8(ascii: "\\"), content[i + 1] == UInt8(ascii: "u"),
                       let low = hex4(content, i + 2), (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        i += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(unit) {
                    scalar = 0xFFFD
                }
                appendUTF8(scalar, &out)
            default: out.append(e)  // " \ /
            }
        }
    }

    /// The decoded bytes of `content` (tests and the slow path of matching).
    public static func decode(_ content: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        decode(content, into: &out)
        return out
    }

    static func hex4(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt16? {
        guard i + 4 <= s.count else { return nil }
        var value: UInt16 = 0
        for k in i..<(i + 4) {
            guard let h = hexValue(s[k]) else { return nil }
            value = value << 4 | UInt16(h)
        }
        return value
    }

    static func appendUTF8(_ scalar: UInt32, _ out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80: out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(scalar >> 6))
            out.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(scalar >> 12))
            out.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            out.append(0x80 | UInt8(scalar & 0x3F))
        default:
            out.append(0xF0 | UInt8(scalar >> 18))
            out.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            out.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            out.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
