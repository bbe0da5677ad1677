/// Bytes of a file that were not exported, and why: reported as an entry of category `gap`
/// (with fields `gapBytes` and `gapReason`), never as silence.
public struct GapReport: Sendable {
    public static var category: String { GapVocabulary.category }
    public static var fieldNames: [String] { GapVocabulary.fieldNames }

    /// Why bytes were not exported.
    public enum Reason: String, Sendable, CaseIterable {
        /// A file was truncated before everything was read, and no rotated copy held the rest.
        case truncated
        /// A file was truncated after logrotate copied it (copytruncate): what was written between the
        /// copy and the truncation, if anything, is lost, and nobody can tell how much.
        case copytruncate
        /// The state was idle: positions were kept current, nothing was exported.
        case idle
        /// A file vanished (deleted, or rotated out of reach) before it was read to its end.
        case vanished
        /// Reading stopped at damaged or unreadable data (a truncated or corrupt gzip, an I/O error):
        /// what followed it is lost.
        case damaged
    }

    public let file: SourceFile
    /// Where the gap starts in the file's decompressed stream.
    public let offset: Int64
    /// How many bytes, when known (`truncated` and `vanished` usually cannot know).
    public let bytes: Int64?
    public let reason: Reason

    public init(file: SourceFile, offset: Int64, bytes: Int64?, reason: Reason) {
        self.file = file
        self.offset = offset
        self.bytes = bytes
        self.reason = reason
    }

    public var message: String {
        let amount = bytes.map { "\($0) bytes" }
        switch reason {
        case .truncated:
            return "gap: the file was truncated after offset \(offset) and no rotated copy holds its rest; "
                + (amount.map { "\($0) were lost" } ?? "whatever was written after spytail's last read (maybe nothing) is lost")
        case .copytruncate:
            return "gap: the file was copied and truncated (copytruncate) after offset \(offset); lines written between "
                + "the copy and the truncation, if any, are lost and cannot be counted"
        case .idle:
            return "gap: \(amount ?? "some bytes") skipped while spytail was idle"
        case .vanished:
            return "gap: the file was rotated away or deleted before spytail read it past offset \(offset); "
                + (amount.map { "\($0) were lost" } ?? "whatever was written after that (maybe nothing) is lost")
        case .damaged:
            return "gap: reading stopped at offset \(offset) on damaged or unreadable data (a truncated or corrupt gzip, "
                + "an I/O error); what followed it is lost"
        }
    }

    /// The entry: the message, and the two fields pointing into it.
    public func entry(vocabulary: Vocabulary) -> SpyEntry {
        var entry = SpyEntry(file: file)
        let text = message
        entry.text = Array(text.utf8)
        entry.headLength = entry.text.count
        entry.message = 0..<entry.text.count
        entry.offset = offset
        entry.lineCount = 0
        entry.category = vocabulary.categoryIndex(named: Self.category) ?? 0
        if let bytes, let start = entry.text.firstRange(of: Array(" \(bytes) bytes".utf8))?.lowerBound,
           let field = vocabulary.fieldNames.lastIndex(of: "gapBytes") {
            let bytesText = Array(" \(bytes) ".utf8)
            entry.fields.append(FieldValue(name: field, range: (start + 1)..<(start + bytesText.count - 1)))
        }
        if let field = vocabulary.fieldNames.lastIndex(of: "gapReason") {
            // The reason's word is not in the message: append it after the message, outside `message`.
            entry.text += Array("\n\(reason.rawValue)".utf8)
            entry.headLength = entry.text.count
            entry.fields.append(FieldValue(name: field, range: (entry.text.count - reason.rawValue.utf8.count)..<entry.text.count))
        }
        return entry
    }
}
