/// The one place that decides whether a line joins the entry before it: the multiline regex matches it and
/// an entry is open. Used by the assembler (live reading) and by the block cutter (`scan`), so both join alike.
public struct ContinuationRule {
    public let regex: Regex?
    /// The commonest rules only look at a line's first byte (`^\s`, `^[ \t]`, with or without `+`):
    /// those are answered from this table instead of a regex call on every line (the reader's thread).
    private let firstByte: FirstByteSet?

    public init(_ regex: Regex?) {
        self.regex = regex
        firstByte = regex.flatMap { FirstByteSet(pattern: $0.pattern) }
    }

    /// Whether `line` continues the open entry (false when no entry is open, or without a multiline rule).
    @inline(__always)
    public func continues(_ line: Line, entryOpen: Bool) -> Bool {
        guard entryOpen, regex != nil else { return false }
        if let firstByte { return line.bytes.first.map(firstByte.contains) ?? false }
        return regex!.matches(line.bytes)
    }

    /// Without a rule every line is an entry of its own, complete at once.
    public var joinsLines: Bool { regex != nil }
}
