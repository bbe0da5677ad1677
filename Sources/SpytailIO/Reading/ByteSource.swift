/// A readable stream of a file's decompressed bytes: plain and gzip files behind one protocol.
public protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes, 0 at the end. Data before an error is
    /// returned first, the error on the next call.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int
    /// Whether the file is gzip-compressed.
    var isCompressed: Bool { get }
}
