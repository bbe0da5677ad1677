/// Bytes of one file in, entries out: the line source (splitter, and a container runtime's joiner) and the
/// multiline assembler together.
public struct EntryStream {
    public private(set) var lines: LineSource
    public private(set) var assembler: EntryAssembler

    /// `container`: the file is a container runtime's log; the multiline rule then applies inside the joiner.
    public init(file: SourceFile, maxLineBytes: Int, continuation: Regex?, container: ContainerFormat? = nil, startOffset: Int64 = 0) {
        lines = LineSource(maxLineBytes: maxLineBytes, container: container, continuation: continuation, startOffset: startOffset)
        assembler = EntryAssembler(file: file, continuation: container == nil ? continuation : nil, maxLineBytes: maxLineBytes)
    }

    /// Feeds a chunk; complete entries go to `emit`.
    public mutating func push<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try lines.push(chunk) { (line) throws(E) in try assembler.add(line, emit) }
    }

    /// End of input: the last line without newline, then the pending entry.
    public mutating func finish<E: Error>(_ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try lines.finish { (line) throws(E) in try assembler.add(line, emit) }
        try assembler.flush(emit)
    }

    /// The offset of the first byte not yet handed out as part of an entry: the pending entry's head line,
    /// else a held partial line, else the end of what was pushed. A checkpoint saves this, so a restart
    /// reads the pending entry again instead of losing it.
    public var resumeOffset: Int64 { assembler.pendingOffset ?? lines.pendingOffset }

    /// Whether an entry waits for more lines (the multiline idle timeout applies).
    public var hasPendingEntry: Bool { assembler.hasPending || lines.hasPending }

    /// Hands out the pending entry now (the multiline idle timeout).
    public mutating func flushPendingEntry<E: Error>(_ emit: (inout SpyEntry) throws(E) -> Void) throws(E) {
        try lines.flush { (line) throws(E) in try assembler.add(line, emit) }
        try assembler.flush(emit)
    }

    /// Physical lines seen so far.
    public var lineCount: Int { lines.linesEmitted }
}
