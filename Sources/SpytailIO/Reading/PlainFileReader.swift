import Glibc

/// Reads an uncompressed file with read(2); may start with bytes already read by the opener.
public final class PlainFileReader: ByteSource {
    let fd: Int32
    let path: String
    let ownsDescriptor: Bool
    private var prefix: [UInt8]
    private var prefixOffset = 0
    private var fileOffset: Int64

    public init(fd: Int32, path: String, prefix: [UInt8] = [], ownsDescriptor: Bool = true) {
        self.fd = fd
        self.path = path
        self.prefix = prefix
        self.ownsDescriptor = ownsDescriptor
        fileOffset = Int64(prefix.count)
    }

    deinit { if ownsDescriptor { Syscall.close(fd) } }

    public var isCompressed: Bool { false }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        if prefixOffset < prefix.count {
            let n = min(buffer.count, prefix.count - prefixOffset)
            prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + prefixOffset, byteCount: n) }
            prefixOffset += n
            if prefixOffset == prefix.count { prefix = [] }
            return n
        }
        do {
            let n = try Syscall.read(fd, buffer)
            fileOffset += Int64(n)
            return n
        } catch {
            throw ReadError(path: path, offset: fileOffset, cause: .read(error))
        }
    }
}
