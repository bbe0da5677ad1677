/// Receives the entries of one output stream. Implementations format and write them (`FormattingSink`)
/// or record them (the test spy `RecordingEntrySink`).
public protocol EntrySink: AnyObject {
    /// Takes one entry; may buffer it.
    func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError)
    /// Delivers everything buffered so far to its destination.
    func flush() throws(SinkError)
    /// Waits until what was flushed is on the disk (see `ByteWriter.sync`); before a durable checkpoint.
    func sync() throws(SinkError)
    /// Why the destination took no more (it is full); meanwhile bytes wait in the sink until a `flush()`
    /// gets them out. nil: it takes bytes.
    var stall: SinkError? { get }
}

extension EntrySink {
    public func sync() throws(SinkError) {}
    public var stall: SinkError? { nil }
    /// The destination is full: bytes wait in the sink until a `flush()` gets them out.
    public var isStalled: Bool { stall != nil }
}
