import SpytailCore

/// An opened output: how entries are formatted and where the bytes go.
public struct ScanOutput {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter

    public init(formatter: any EntryFormatter, writer: any ByteWriter) {
        self.formatter = formatter
        self.writer = writer
    }
}
