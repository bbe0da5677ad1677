/// Where formatted bytes go: a file descriptor in the I/O layer, a buffer in tests.
public protocol ByteWriter: AnyObject {
    /// Writes all of `bytes` or throws.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError)
    /// Name for messages (`stdout`, the file path).
    var name: String { get }
    /// Whether the destination depends on the entries' source (a file output whose path holds `{source}`):
    /// then bytes of one source at a time go to `forSource(_:)`.
    var routesBySource: Bool { get }
    /// The writer for entries of `source` (`SourceFile.source`); itself unless `routesBySource`.
    func forSource(_ source: Int) throws(SinkError) -> any ByteWriter
}

extension ByteWriter {
    public var routesBySource: Bool { false }
    public func forSource(_ source: Int) throws(SinkError) -> any ByteWriter { self }
}
