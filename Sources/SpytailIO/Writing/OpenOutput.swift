import SpytailCore

/// An opened output of `scan` or `run`: how entries are formatted and where the bytes go.
public struct OpenOutput {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter
    /// Set when the writer's bytes are acknowledged later (a network output; the writer itself).
    public let delivery: (any AcknowledgingOutput)?

    public init(formatter: any EntryFormatter, writer: any ByteWriter, delivery: (any AcknowledgingOutput)? = nil) {
        self.formatter = formatter
        self.writer = writer
        self.delivery = delivery
    }

    /// The sink that formats entries for this output and writes them as they come (one per destination
    /// file when the path holds a placeholder).
    public func makeSink() -> any EntrySink {
        writer.routesByFile ? SourceRoutingSink(formatter: formatter, writer: writer) : FormattingSink(formatter: formatter, writer: writer)
    }
}
