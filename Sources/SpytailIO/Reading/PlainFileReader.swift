import Glibc

/// Reads an uncompressed file with read(2); may start with bytes already read by the opener.
public final class PlainFileReader: ByteSource {
    let fd: Int32
    let path: String
    let ownsDescriptor: Bool
    private var prefix: [UInt8]
    private var prefixOffset = 0
    private var fileOffset: Int64
    /// Where reading ends (nil: at the end of the file); see `endAtLastNewline(notBefore:)`.
    public var end: Int64?

    public init(fd: Int32, path: String, prefix: [UInt8] = [], ownsDescriptor: Bool = true) {
        self.fd = fd
        self.path = path
        self.prefix = prefix
        self.ownsDescriptor = ownsDescriptor
        fileOffset = Int64(prefix.count)
    }

    deinit { if ownsDescriptor { Syscall.close(fd) } }

    public var isCompressed: Bool { false }

    public func read(into whole: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        let position = prefixOffset < prefix.count ? Int64(prefixOffset) : fileOffset
        let room = end.map { Int(max(0, min(Int64(whole.count), $0 - position))) } ?? whole.count
        guard room > 0 else { return 0 }
        let buffer = UnsafeMutableRawBufferPointer(rebasing: whole[..<room])
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

    /// Ends reading after the file's last newline as it is now, or at `offset` when none comes after it: the
    /// file may still be written, and a line without its newline is left for a later read (its writer may
    /// finish it). Returns that end.
    @discardableResult
    public func endAtLastNewline(notBefore offset: Int64) -> Int64 {
        var upTo = (try? Syscall.fstat(fd)).map { Int64($0.st_size) } ?? offset
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var found: Int64?
        while found == nil, upTo > offset {
            let from = max(offset, upTo - Int64(chunk.count))
            let n = (try? chunk.withUnsafeMutableBytes { (raw) throws(Errno) in
                try Syscall.pread(fd, UnsafeMutableRawBufferPointer(rebasing: raw[..<Int(upTo - from)]), at: from)
            }) ?? 0
            guard n > 0 else { break }
            if let last = chunk[..<n].lastIndex(of: 0x0A) { found = from + Int64(last) + 1 }
            upTo = from
        }
        let end = found ?? offset
        self.end = end
        return end
    }
}
