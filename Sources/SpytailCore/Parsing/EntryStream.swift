/// Bytes of one file in, entries out: the line splitter and the multiline assembler together.
public struct EntryStream {
    public private(set) var splitter: LineSplitter
    public private(set) var assembler: EntryAssembler

    public init(file: SourceFile, maxLineBytes: Int, continuation: Regex?, startOffset: Int64 = 0) {
        splitter = LineSplitter(maxLineBytes: maxLineBytes, startOffset: startOffset)
        assembler = EntryAssembler(file: file, continuation: continuation)
    }

    /// Feeds a chunk; complete entries go to `emit`.
    public mutating func push<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try splitter.push(chunk) { (line) throws(E) in try assembler.add(line, emit) }
    }

    /// End of input: the last line without newline, then the pending entry.
    public mutating func finish<E: Error>(_ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try splitter.finish { (line) throws(E) in try assembler.add(line, emit) }
        try assembler.flush(emit)
    }

    /// The offset of the first byte not yet handed out as part of an entry: the pending entry's head line,
    /// else a held partial line, else the end of what was pushed. A checkpoint saves this, so a restart
    /// reads the pending entry again instead of losing it.
    public var resumeOffset: Int64 { assembler.pendingOffset ?? splitter.pendingOffset }

    /// Whether an entry waits for more lines (the multiline idle timeout applies).
    public var hasPendingEntry: Bool { assembler.hasPending }

    /// Hands out the pending entry now (the multiline idle timeout).
    public mutating func flushPendingEntry<E: Error>(_ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try assembler.flush(emit)
    }

    /// Physical lines seen so far.
    public var lineCount: Int { splitter.linesEmitted }
}
