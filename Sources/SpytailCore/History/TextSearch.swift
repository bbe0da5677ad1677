/// What the explorer searches messages for: a text, smart case as in `less -i` and lnav (a text without
/// capitals matches any case, one with capitals only itself), or a PCRE2 regex (case as written; `(?i)`
/// makes it insensitive). A regex match is bounded: PCRE2's match limits apply, nothing is held per entry.
/// Used by one thread at a time (a compiled regex holds its match data).
public final class TextSearch {
    public enum Mode: Sendable, Equatable {
        case text
        case regex
    }

    public let pattern: String
    public let mode: Mode
    /// The text matches only itself (it has capitals).
    public let caseSensitive: Bool
    private let needle: [UInt8]
    private let regex: Regex?

    /// A text search, or a regex one; an invalid regex is an error naming the offset where it is wrong.
    public init(_ pattern: String, mode: Mode) throws(RegexError) {
        self.pattern = pattern
        self.mode = mode
        switch mode {
        case .text:
            caseSensitive = pattern.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
            needle = Array(pattern.utf8)
            regex = nil
        case .regex:
            caseSensitive = true
            needle = []
            regex = try Regex(pattern)
        }
    }

    /// Whether `message` matches.
    public func matches(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        if let regex { return regex.matches(message) }
        if needle.isEmpty { return true }
        return needle.withUnsafeBufferPointer { needle in
            caseSensitive ? ByteNeedle.occurs(needle, in: message) : Self.occursIgnoringCase(needle, in: message)
        }
    }

    /// Whether lower-case ASCII `needle` occurs in `haystack` in any ASCII case (other bytes as they are).
    static func occursIgnoringCase(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
        let upperFirst = Self.upper(first)
        var at = 0
        let last = haystack.count - needle.count
        while at <= last {
            let byte = haystack[at]
            if byte == first || byte == upperFirst {
                var k = 1
                while k < needle.count && Self.lower(haystack[at + k]) == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            at += 1
        }
        return false
    }

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
    @inline(__always) static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte & ~0x20 : byte }
}
