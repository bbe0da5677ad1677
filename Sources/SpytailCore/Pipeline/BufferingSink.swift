/// A sink that formats into whatever buffer it is pointed at: the current block's output for its route.
/// Workers use it so that formatting happens in parallel and writing stays in order.
public final class BufferingSink: EntrySink {
    public let formatter: any EntryFormatter
    public var target: OutputBuffer

    public init(formatter: any EntryFormatter) {
        self.formatter = formatter
        target = OutputBuffer(capacity: 64)
    }

    public func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        formatter.format(entry, text: text, into: target)
    }

    public func flush() throws(SinkError) {}
}
