/// Where formatted bytes go: a file descriptor in the I/O layer, a buffer in tests.
public protocol ByteWriter: AnyObject {
    /// Writes all of `bytes` or throws.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError)
    /// Name for messages (`stdout`, the file path).
    var name: String { get }
}
