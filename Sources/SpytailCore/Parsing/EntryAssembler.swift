/// Joins continuation lines (those the multiline regex matches) to the entry before them.
/// Holds one pending entry and reuses its storage for the next.
public struct EntryAssembler {
    let rule: ContinuationRule
    private var entry: SpyEntry
    /// An entry is started and waits for its continuation lines or the next head line.
    public private(set) var hasPending = false

    /// `maxLineBytes`: the parser's line limit, which bounds an entry (`ContinuationRule.maxEntryBytes`).
    public init(file: SourceFile, continuation: Regex?, maxLineBytes: Int) {
        rule = ContinuationRule(continuation, maxLineBytes: maxLineBytes)
        entry = SpyEntry(file: file)
    }

    /// Starts over for another file, keeping the storage.
    public mutating func reset(for file: SourceFile) {
        hasPending = false
        entry.file = file
    }

    /// Whether `line` would join the pending entry.
    public func isContinuation(_ line: Line) -> Bool { rule.continues(line, entryBytes: hasPending ? entry.text.count : nil) }

    /// Adds a line; a head line first hands the pending entry to `emit`. Without a multiline rule an
    /// entry is complete at once and is handed out right away (nothing waits for a next line).
    public mutating func add<E: Error>(_ line: Line, _ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try add(line, continuation: isContinuation(line), emit)
        if !rule.joinsLines { try flush(emit) }
    }

    /// Adds a line whose kind the caller decided (the block reader did, with `isContinuation`).
    public mutating func add<E: Error>(_ line: Line, continuation: Bool, _ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        if continuation && hasPending {
            entry.text.append(0x0A)
            entry.text.append(contentsOf: line.bytes)
            entry.lineCount += 1
            entry.truncated = entry.truncated || line.truncated
            return
        }
        try flush(emit)
        entry.text.removeAll(keepingCapacity: true)
        entry.decodedStart = nil
        entry.text.append(contentsOf: line.bytes)
        entry.headLength = line.container?.headLength ?? line.bytes.count
        entry.offset = line.offset
        entry.lineCount = line.container?.lineCount ?? 1
        entry.truncated = line.truncated
        entry.envelopeStart = line.container?.envelopeStart
        entry.envelopeProblem = line.container?.problem
        hasPending = true
    }

    /// Hands the pending entry (if any) to `emit`: end of input, or the idle timeout in `run`.
    public mutating func flush<E: Error>(_ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        guard hasPending else { return }
        hasPending = false
        try emit(&entry)
    }

    /// Offset of the pending entry's head line.
    public var pendingOffset: Int64? { hasPending ? entry.offset : nil }
}
