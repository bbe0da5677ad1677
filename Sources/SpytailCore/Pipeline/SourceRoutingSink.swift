/// An output whose destination depends on the entry's file (a file path with `{source}` or a path field):
/// one formatting sink per destination, made when its first entry comes, each writing to its own file.
/// Flushing flushes them all, so a checkpoint written after a flush covers every file.
public final class SourceRoutingSink: EntrySink {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter
    /// By destination writer, in the order they were made.
    private var sinks: [ObjectIdentifier: FormattingSink] = [:]
    private var order: [ObjectIdentifier] = []
    /// The last entry's file and its sink (entries come file by file).
    private var last: (file: SourceFile, sink: FormattingSink)?

    public init(formatter: any EntryFormatter, writer: any ByteWriter) {
        self.formatter = formatter
        self.writer = writer
    }

    public func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        try sink(for: entry.file).consume(entry, text: text)
    }

    public func flush() throws(SinkError) {
        var first: SinkError?
        for key in order {
            do { try sinks[key]!.flush() } catch { first = first ?? error }
        }
        if let first { throw first }
    }

    /// The writer syncs every file it opened.
    public func sync() throws(SinkError) { try writer.sync() }

    /// Asked often (before every read while an output may be full): any stalled file will do.
    public var stall: SinkError? { sinks.values.lazy.compactMap(\.stall).first }

    private func sink(for file: SourceFile) throws(SinkError) -> FormattingSink {
        if let last, last.file === file { return last.sink }
        let destination = try writer.forFile(file)
        let key = ObjectIdentifier(destination)
        let sink: FormattingSink
        if let made = sinks[key] {
            sink = made
        } else {
            sink = FormattingSink(formatter: formatter, writer: destination)
            sinks[key] = sink
            order.append(key)
        }
        last = (file, sink)
        return sink
    }
}
