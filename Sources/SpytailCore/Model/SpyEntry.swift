/// One log entry: a head line, its continuation lines, and what the rules made of it.
///
/// The text is kept as bytes; the parsed parts are ranges into it, so building an entry costs one copy of
/// its lines and no allocation once the storage is warm (the assembler reuses one entry).
public struct SpyEntry: Sendable {
    /// The head line, then each continuation line preceded by `\n`.
    public var text: [UInt8] = []
    /// Length of the head line in `text`.
    public var headLength = 0
    public var timestamp: Range<Int>?
    public var message: Range<Int> = 0..<0
    public var fields: [FieldValue] = []
    /// Index into `Vocabulary.categories`.
    public var category = 0
    public var tags = TagSet()
    public var file: SourceFile
    /// Offset of the head line in the file's decompressed stream.
    public var offset: Int64 = 0
    /// Physical lines in the entry (1 + continuation lines).
    public var lineCount = 0
    /// Some line of the entry exceeded `maxLineBytes` and was cut.
    public var truncated = false
    /// Nanoseconds since the Unix epoch, when the timestamp could be read in the configured format.
    public var time: Int64?
    /// Where values the parser decoded start in `text` (after the lines): a JSON message with escapes, a
    /// logfmt quoted value. nil when there are none.
    public var decodedStart: Int?
    /// The line did not parse in its source's format: the whole head line is the message.
    public var parseError: ParseProblem?
    /// A container runtime's line: where its envelope (time, stream, attrs) starts in `text`, after the lines.
    public var envelopeStart: Int?
    /// A container runtime's line that was not in the runtime's format (the parser reports it).
    public var envelopeProblem: ParseProblem?

    public init(file: SourceFile) { self.file = file }

    /// Continuation lines (joined by `\n`), or nil for a one-line entry.
    public var detail: Range<Int>? {
        let end = envelopeStart ?? decodedStart ?? text.count
        return end > headLength ? (headLength + 1)..<end : nil
    }

    /// Appends decoded bytes after the lines and returns their range.
    public mutating func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        if decodedStart == nil { decodedStart = text.count }
        let start = text.count
        text.append(contentsOf: bytes)
        return start..<text.count
    }

    /// Drops what the parser added (decoded values, fields, the parse error) before the entry is parsed again.
    public mutating func resetParse() {
        if let start = decodedStart {
            // Only when something was added: an empty removal still costs a call per entry.
            if start < text.count { text.removeSubrange(start...) }
            decodedStart = nil
        }
        parseError = nil
        // A container parser's inner parser resets again: nothing to remove then, and the call is not free.
        if !fields.isEmpty { fields.removeAll(keepingCapacity: true) }
    }

    /// The deterministic id: the content fingerprint of the file (in its epoch) and the entry's offset in it.
    public var id: String { "\(file.idFingerprint)-\(offset)" }

    /// Conveniences for tests and diagnostics (not for the per-line path).
    public func string(_ range: Range<Int>) -> String { String(decoding: text[range], as: UTF8.self) }
    public var messageString: String { string(message) }
    public var detailString: String? { detail.map(string) }
    public var timestampString: String? { timestamp.map(string) }
}
