/// JSON string escaping on bytes. Invalid UTF-8 becomes U+FFFD so the output is always valid JSON;
/// every control character is escaped; valid multi-byte sequences are copied as they are.
extension OutputBuffer {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `bytes` escaped for the inside of a JSON string (no surrounding quotes).
    public func appendJSONEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var runStart = 0
        var i = 0
        while i < n {
            let b = base[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b < 0x80 { i += 1; continue }
            if b >= 0x80 {
                let length = UTF8Validation.sequenceLength(base + i, available: n - i)
                if length > 0 { i += length; continue }
            }
            append(UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            if b >= 0x80 {
                append(UTF8Validation.replacementCharacter)
            } else {
                appendEscape(for: b)
            }
            i += 1
            runStart = i
        }
        append(UnsafeBufferPointer(start: base + runStart, count: n - runStart))
    }

    /// Appends `"` + escaped bytes + `"`.
    public func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        appendJSONEscaped(bytes)
        append(UInt8(ascii: "\""))
    }

    public func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString($0) }
    }

    private func appendEscape(for b: UInt8) {
        switch b {
        case 0x22: append([0x5C, 0x22])
        case 0x5C: append([0x5C, 0x5C])
        case 0x0A: append([0x5C, UInt8(ascii: "n")])
        case 0x0D: append([0x5C, UInt8(ascii: "r")])
        case 0x09: append([0x5C, UInt8(ascii: "t")])
        case 0x08: append([0x5C, UInt8(ascii: "b")])
        case 0x0C: append([0x5C, UInt8(ascii: "f")])
        default:
            let out = reserve(6)
            out[0] = 0x5C; out[1] = UInt8(ascii: "u"); out[2] = 0x30; out[3] = 0x30
            out[4] = Self.hexDigits[Int(b >> 4)]
            out[5] = Self.hexDigits[Int(b & 0xF)]
            commit(6)
        }
    }
}
