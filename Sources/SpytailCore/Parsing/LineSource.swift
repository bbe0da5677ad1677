/// The lines of one file as its parser reads them: the splitter's physical lines, or, for a container
/// runtime's log (`cri`, `docker`), the application's entries its joiner rebuilds from them.
public struct LineSource {
    public private(set) var splitter: LineSplitter
    private var joiner: ContainerLineJoiner?

    /// `container`: the runtime's format; the multiline rule and the line limit then apply to the rebuilt
    /// lines, and the physical lines may be longer by an envelope.
    public init(maxLineBytes: Int, container: ContainerFormat?, continuation: Regex?, startOffset: Int64) {
        if let container {
            splitter = LineSplitter(maxLineBytes: maxLineBytes + Self.envelopeRoom, startOffset: startOffset)
            joiner = ContainerLineJoiner(format: container, continuation: continuation, maxLineBytes: maxLineBytes)
        } else {
            splitter = LineSplitter(maxLineBytes: maxLineBytes, startOffset: startOffset)
        }
    }

    /// Room for a runtime's envelope around a line (time, stream, tag; Docker's JSON and attrs).
    static let envelopeRoom = 4096

    /// Whether the joiner puts entries together itself (the assembler then takes each line as an entry).
    public var joinsEntries: Bool { joiner != nil }

    public mutating func push<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Line) throws(E) -> Void) throws(E) {
        if joiner == nil { return try splitter.push(chunk, body) }
        try splitter.push(chunk) { (line) throws(E) in try joiner!.add(line, body) }
    }

    /// End of input: the last line without newline, then whatever the joiner holds.
    public mutating func finish<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        if joiner == nil { return try splitter.finish(body) }
        try splitter.finish { (line) throws(E) in try joiner!.add(line, body) }
        try joiner!.flush(body)
    }

    /// The idle timeout: the joiner's open lines and entries go out as they are.
    public mutating func flush<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        try joiner?.flush(body)
    }

    /// The first byte not handed out in a line: the joiner's first open entry, else a held partial line.
    public var pendingOffset: Int64 { joiner?.pendingOffset ?? splitter.pendingOffset }
    /// The joiner holds lines (the idle timeout applies).
    public var hasPending: Bool { joiner?.hasPending ?? false }
    /// Physical lines seen so far.
    public var linesEmitted: Int { splitter.linesEmitted }
}
