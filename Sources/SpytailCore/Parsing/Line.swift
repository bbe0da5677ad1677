/// One line handed out by `LineSplitter` (a physical line) or by `ContainerLineJoiner` (an application's
/// line rebuilt from a container runtime's log): its bytes (no `\n`, no trailing `\r`) are valid only during
/// the callback that receives it.
public struct Line {
    public var bytes: UnsafeBufferPointer<UInt8>
    /// Byte offset of the line's first byte in the (decompressed) stream.
    public var offset: Int64
    /// The line was longer than `maxLineBytes`; `bytes` holds its head, the rest was skipped.
    public var truncated: Bool
    /// Set when a container joiner rebuilt the line.
    public var container: ContainerShape?

    public init(bytes: UnsafeBufferPointer<UInt8>, offset: Int64, truncated: Bool = false, container: ContainerShape? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.truncated = truncated
        self.container = container
    }
}

/// How a line a container joiner hands out is laid out: the application's text (one entry: its first line,
/// then continuation lines after `\n`), then the runtime's envelope (`ContainerEnvelope`); or, when the
/// physical line was not in the runtime's format, the whole line and what is wrong with it.
public struct ContainerShape: Sendable, Equatable {
    /// Length of the entry's first line.
    public var headLength: Int
    /// Where the envelope starts (the end of the text); nil when `problem` is set.
    public var envelopeStart: Int?
    /// Application lines in the entry (1 + continuation lines).
    public var lineCount: Int
    /// Why the physical line is not in the runtime's format: it is its own entry, with this as `parseError`.
    public var problem: ParseProblem?

    public init(headLength: Int, envelopeStart: Int?, lineCount: Int, problem: ParseProblem? = nil) {
        self.headLength = headLength
        self.envelopeStart = envelopeStart
        self.lineCount = lineCount
        self.problem = problem
    }
}
