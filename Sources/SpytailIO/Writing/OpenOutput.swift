import SpytailCore

/// An opened output of `scan` or `run`: how entries are formatted and where the bytes go.
public struct OpenOutput {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter

    public init(formatter: any EntryFormatter, writer: any ByteWriter) {
        self.formatter = formatter
        self.writer = writer
    }
}
