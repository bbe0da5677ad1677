/// Where formatted bytes go: a file descriptor in the I/O layer, a buffer in tests.
public protocol ByteWriter: AnyObject {
    /// Writes all of `bytes` or throws.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError)
    /// Name for messages (`stdout`, the file path).
    var name: String { get }
    /// Whether the destination depends on the entries' file (a file output whose path holds `{source}` or a
    /// path field): then bytes of one file at a time go to `forFile(_:)`.
    var routesByFile: Bool { get }
    /// The writer for entries of `file`; itself unless `routesByFile`.
    func forFile(_ file: SourceFile) throws(SinkError) -> any ByteWriter
    /// Waits until what was written is on the disk (a file: `fdatasync`), so that a checkpoint made durable
    /// after it never names bytes a power loss could still take. A writer whose bytes are kept elsewhere (a
    /// pipe, a network output, which has its acknowledgements) has nothing to do.
    func sync() throws(SinkError)
}

extension ByteWriter {
    public var routesByFile: Bool { false }
    public func forFile(_ file: SourceFile) throws(SinkError) -> any ByteWriter { self }
    public func sync() throws(SinkError) {}
}
