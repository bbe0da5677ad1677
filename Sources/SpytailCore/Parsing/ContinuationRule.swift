/// The one place that decides whether a line joins the entry before it: the multiline regex matches it, an
/// entry is open, and the entry stays within `maxEntryBytes`. Used by the assembler (live reading), the block
/// cutter (`scan`) and a container log's joiner, so all join alike.
public struct ContinuationRule {
    public let regex: Regex?
    /// The most bytes an entry's text may hold. A continuation line that would take it past this starts an
    /// entry of its own instead — nothing is dropped — so a writer of nothing but continuation lines cannot
    /// grow one entry, and the memory holding it, without end.
    public let maxEntryBytes: Int
    /// The commonest rules only look at a line's first byte (`^\s`, `^[ \t]`, with or without `+`):
    /// those are answered from this table instead of a regex call on every line (the reader's thread).
    @usableFromInline let firstByte: FirstByteSet?

    public init(_ regex: Regex?, maxLineBytes: Int) {
        self.regex = regex
        maxEntryBytes = Self.maxEntryBytes(maxLineBytes: maxLineBytes)
        firstByte = regex.flatMap { FirstByteSet(pattern: $0.pattern) }
    }

    /// An entry holds at most four lines of the longest kind, and at least 1 MiB (4 MiB with the default
    /// `maxLineBytes`): room for any stack trace, and the bound on what one entry holds in memory.
    public static func maxEntryBytes(maxLineBytes: Int) -> Int { max(4 * min(maxLineBytes, Int.max / 8), 1 << 20) }

    /// Whether `line` continues the open entry, whose text holds `entryBytes` (nil: no entry is open); false
    /// without a multiline rule, and when the line and its `\n` would take the entry past `maxEntryBytes`.
    /// Inlinable: the block cutter (another module) asks for every line on the reading thread, and a call
    /// passes this struct by copy (measured with callgrind: 20–90 more instructions a line).
    @inlinable @inline(__always)
    public func continues(_ line: Line, entryBytes: Int?) -> Bool {
        guard let entryBytes, matches(line) else { return false }
        return line.bytes.count < maxEntryBytes - entryBytes
    }

    /// Whether the rule matches `line` (false without a rule).
    @inlinable @inline(__always)
    func matches(_ line: Line) -> Bool {
        guard let regex else { return false }
        if let firstByte {
            guard let first = line.bytes.first else { return false }
            return firstByte.contains(first)
        }
        return regex.matches(line.bytes)
    }

    /// Without a rule every line is an entry of its own, complete at once.
    public var joinsLines: Bool { regex != nil }
}
