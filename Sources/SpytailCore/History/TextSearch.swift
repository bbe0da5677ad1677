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
    /// The haystack folded to lower case (a case-insensitive search folds, then looks with memchr/memcmp).
    private var folded: UnsafeMutablePointer<UInt8>
    private var foldedCapacity = 4096

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
        folded = .allocate(capacity: foldedCapacity)
    }

    deinit { folded.deallocate() }

    /// Whether `message` matches.
    public func matches(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        if let regex { return regex.matches(message) }
        if needle.isEmpty { return true }
        if caseSensitive { return needle.withUnsafeBufferPointer { ByteNeedle.occurs($0, in: message) } }
        guard message.count >= needle.count else { return false }
        if message.count > foldedCapacity {
            folded.deallocate()
            foldedCapacity = max(2 * foldedCapacity, message.count)
            folded = .allocate(capacity: foldedCapacity)
        }
        Self.fold(message, into: folded)
        return needle.withUnsafeBufferPointer { ByteNeedle.occurs($0, in: UnsafeBufferPointer(start: folded, count: message.count)) }
    }

    /// ASCII capitals to lower case, other bytes as they are (a loop the compiler vectorizes).
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        for i in 0..<bytes.count {
            let byte = base[i]
            out[i] = byte &+ (byte &- 0x41 < 26 ? 0x20 : 0)
        }
    }
}
