/// Renders an entry as bytes: one strategy per output format, chosen by the config.
/// `text` is the entry's storage (`entry.text`), already borrowed by the caller.
public protocol EntryFormatter: Sendable {
    func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer)
}

extension SpytailConfig.Output.Format {
    /// The formatter for this format.
    public func makeFormatter(vocabulary: Vocabulary, color: Bool) -> any EntryFormatter {
        switch self {
        case .jsonl: JSONLinesFormatter(vocabulary: vocabulary)
        case .text: TextFormatter(vocabulary: vocabulary, color: color)
        case .logfmt: LogfmtFormatter(vocabulary: vocabulary)
        }
    }
}
