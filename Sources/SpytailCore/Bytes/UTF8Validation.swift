/// Byte-level UTF-8 checks used by the formatters and the line splitter.
public enum UTF8Validation {
    /// U+FFFD REPLACEMENT CHARACTER, in UTF-8.
    public static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Length of the valid UTF-8 sequence starting at `p` (a byte >= 0x80), or 0 when it is invalid
    /// (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, or cut short).
    @inlinable
    public static func sequenceLength(_ p: UnsafePointer<UInt8>, available: Int) -> Int {
        let b0 = p[0]
        @inline(__always) func cont(_ i: Int) -> Bool { i < available && p[i] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0:
            return available > 2 && (0xA0...0xBF).contains(p[1]) && cont(2) ? 3 : 0
        case 0xED:
            return available > 2 && (0x80...0x9F).contains(p[1]) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE, 0xEF:
            return cont(1) && cont(2) ? 3 : 0
        case 0xF0:
            return available > 3 && (0x90...0xBF).contains(p[1]) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4:
            return available > 3 && (0x80...0x8F).contains(p[1]) && cont(2) && cont(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// Whether `p[0..<n]` is valid UTF-8 (ASCII skipped eight bytes at a time).
    public static func isValid(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i < n {
            if i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i &+= 8
            } else if p[i] < 0x80 {
                i &+= 1
            } else {
                let length = sequenceLength(p + i, available: n - i)
                guard length > 0 else { return false }
                i &+= length
            }
        }
        return true
    }

    /// How much of `bytes` fits in `room` bytes: all of it, or at most `room` bytes ending on a character boundary
    /// (less than `bytes.count`: the caller flags the text truncated).
    public static func prefixLength(_ bytes: UnsafeBufferPointer<UInt8>, within room: Int) -> Int {
        guard bytes.count > room else { return bytes.count }
        guard room > 0 else { return 0 }
        return lengthWithoutCutSequence(UnsafeBufferPointer(rebasing: bytes[..<room]))
    }

    /// The length of `bytes` without a multi-byte sequence cut short at its end
    /// (so a truncated line ends on a character boundary).
    public static func lengthWithoutCutSequence(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = bytes.count
        // Step back over at most three continuation bytes to the lead byte of the last sequence.
        while start > 0 && bytes.count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        let present = bytes.count - (start - 1)
        return present < expected ? start - 1 : bytes.count
    }
}
