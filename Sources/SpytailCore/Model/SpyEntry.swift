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

    public init(file: SourceFile) { self.file = file }

    /// Continuation lines (joined by `\n`), or nil for a one-line entry.
    public var detail: Range<Int>? { text.count > headLength ? (headLength + 1)..<text.count : nil }

    /// The deterministic id: the content fingerprint of the file and the entry's offset in it.
    public var id: String { "\(file.fingerprint)-\(offset)" }

    /// Conveniences for tests and diagnostics (not for the per-line path).
    public func string(_ range: Range<Int>) -> String { String(decoding: text[range], as: UTF8.self) }
    public var messageString: String { string(message) }
    public var detailString: String? { detail.map(string) }
    public var timestampString: String? { timestamp.map(string) }
}
