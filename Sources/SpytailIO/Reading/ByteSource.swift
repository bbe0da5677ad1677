import SpytailCore

/// A readable stream of a file's decompressed bytes: plain and gzip files behind one protocol.
public protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes, 0 at the end. Data before an error is
    /// returned first, the error on the next call.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int
    /// Whether the file is gzip-compressed.
    var isCompressed: Bool { get }
}

extension ByteSource {
    /// Reads into `buffer` until the head decides the fingerprint (a newline, or
    /// `Fingerprint.headLimit` bytes), the buffer is full, or the file ends. Returns the bytes read and
    /// whether the file ended.
    public func readHead(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> (count: Int, atEnd: Bool) {
        var filled = 0
        while true {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { return (filled, true) }
            let fresh = UnsafeRawBufferPointer(rebasing: buffer[filled..<(filled + n)])
            filled += n
            if filled >= Fingerprint.headLimit || filled == buffer.count || fresh.contains(0x0A) { return (filled, false) }
        }
    }
}
