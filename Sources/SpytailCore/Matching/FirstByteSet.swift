/// The bytes a line may start with for a rule that is "starts with one of these", as a 256-bit set.
@usableFromInline
struct FirstByteSet {
    @usableFromInline let bits: (UInt64, UInt64, UInt64, UInt64)

    /// `\s` in PCRE2 outside UCP mode: space, tab, LF, VT, FF, CR.
    private static let space: [UInt8] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
    private static let known: [String: [UInt8]] = [
        #"^\s"#: space, #"^\s+"#: space,
        #"^[ \t]"#: [0x20, 0x09], #"^[ \t]+"#: [0x20, 0x09],
        #"^[\t ]"#: [0x20, 0x09], #"^[\t ]+"#: [0x20, 0x09],
    ]

    /// nil when `pattern` is not one of the rules known to look at the first byte only.
    init?(pattern: String) {
        guard let members = Self.known[pattern] else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for byte in members { words[Int(byte >> 6)] |= 1 << UInt64(byte & 63) }
        bits = (words[0], words[1], words[2], words[3])
    }

    @inlinable @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = bits.0
        case 1: word = bits.1
        case 2: word = bits.2
        default: word = bits.3
        }
        return word & (1 << UInt64(byte & 63)) != 0
    }
}
