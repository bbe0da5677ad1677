/// An output whose destination depends on the entry's source (a file path with `{source}`): one
/// formatting sink per source, made when the source's first entry comes, each writing to its own file.
/// Flushing flushes them all, so a checkpoint written after a flush covers every file.
public final class SourceRoutingSink: EntrySink {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter
    private var sinks: [Int: FormattingSink] = [:]

    public init(formatter: any EntryFormatter, writer: any ByteWriter) {
        self.formatter = formatter
        self.writer = writer
    }

    public func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        try sink(for: entry.file.source).consume(entry, text: text)
    }

    public func flush() throws(SinkError) {
        var first: SinkError?
        for source in sinks.keys.sorted() {
            do { try sinks[source]!.flush() } catch { first = first ?? error }
        }
        if let first { throw first }
    }

    /// Asked often (before every read while an output may be full): no sorting, any stalled file will do.
    public var stall: SinkError? { sinks.values.lazy.compactMap(\.stall).first }

    private func sink(for source: Int) throws(SinkError) -> FormattingSink {
        if let sink = sinks[source] { return sink }
        let sink = FormattingSink(formatter: formatter, writer: try writer.forSource(source))
        sinks[source] = sink
        return sink
    }
}
