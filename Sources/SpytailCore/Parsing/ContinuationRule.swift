/// The one place that decides whether a line joins the entry before it: the multiline regex matches it and
/// an entry is open. Used by the assembler (live reading) and by the block cutter (`scan`), so both join alike.
public struct ContinuationRule {
    public let regex: Regex?

    public init(_ regex: Regex?) { self.regex = regex }

    /// Whether `line` continues the open entry (false when no entry is open, or without a multiline rule).
    @inline(__always)
    public func continues(_ line: Line, entryOpen: Bool) -> Bool {
        guard entryOpen, let regex else { return false }
        return regex.matches(line.bytes)
    }

    /// Without a rule every line is an entry of its own, complete at once.
    public var joinsLines: Bool { regex != nil }
}
