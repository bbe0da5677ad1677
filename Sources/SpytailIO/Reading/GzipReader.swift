import CZlib
import Glibc

/// Streams the decompressed bytes of a gzip file with zlib: every member of a multi-member file in
/// turn; trailing zero padding accepted. A truncated or corrupt file yields what decompressed cleanly,
/// then a `ReadError` naming the compressed offset.
public final class GzipReader: ByteSource {
    /// Where the reader is in the file's sequence of members.
    enum State {
        case inMember
        case betweenMembers
        case finished
        case failed(ReadError)
    }

    let fd: Int32
    let path: String
    private let stream: UnsafeMutablePointer<z_stream>  // zlib keeps a pointer back to it: it must not move
    private let input: UnsafeMutableRawBufferPointer
    private var prefix: [UInt8]
    /// File offset just past the bytes read into `input` so far.
    private var fileOffset: Int64 = 0
    private var state = State.betweenMembers

    public var isCompressed: Bool { true }

    /// `prefix`: bytes the opener already read from the start of the file.
    public init(fd: Int32, path: String, prefix: [UInt8] = [], inputSize: Int = 64 * 1024) {
        self.fd = fd
        self.path = path
        self.prefix = prefix
        input = .allocate(byteCount: max(inputSize, prefix.count), alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: a gzip wrapper (not zlib or raw deflate), the largest window.
        _ = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        Syscall.close(fd)
    }

    /// Compressed offset of the next byte zlib will consume.
    private var consumedOffset: Int64 { fileOffset - Int64(stream.pointee.avail_in) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        switch state {
        case .finished: return 0
        case .failed(let error):
            state = .finished
            throw error
        case .inMember, .betweenMembers: break
        }
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(buffer.count)
        do {
            try inflateUntilFull()
        } catch {
            let produced = buffer.count - Int(stream.pointee.avail_out)
            if produced == 0 {
                state = .finished
                throw error
            }
            state = .failed(error)
            return produced
        }
        return buffer.count - Int(stream.pointee.avail_out)
    }

    private func inflateUntilFull() throws(ReadError) {
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in < 2, try refill() == 0, stream.pointee.avail_in == 0 {
                if case .inMember = state { throw ReadError(path: path, offset: consumedOffset, cause: .truncatedGzip) }
                state = .finished
                return
            }
            if case .betweenMembers = state {
                guard try startMember() else { return }
            }
            let rc = inflate(stream, Z_NO_FLUSH)
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                state = .betweenMembers
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
                throw ReadError(path: path, offset: consumedOffset, cause: .corruptGzip(message))
            }
        }
    }

    /// At a member boundary: starts the next member, or ends the file on zero padding.
    /// Returns false when the file is finished.
    private func startMember() throws(ReadError) -> Bool {
        let next = stream.pointee.next_in!
        let available = Int(stream.pointee.avail_in)
        if next[0] == 0x1F && (available < 2 || next[1] == 0x8B) {
            inflateReset(stream)
            state = .inMember
            return true
        }
        if try restIsZeroPadding() {
            state = .finished
            return false
        }
        throw ReadError(path: path, offset: consumedOffset, cause: .trailingGarbage)
    }

    private func restIsZeroPadding() throws(ReadError) -> Bool {
        repeat {
            let next = stream.pointee.next_in!
            for i in 0..<Int(stream.pointee.avail_in) where next[i] != 0 { return false }
            stream.pointee.avail_in = 0
        } while try refill() > 0
        return true
    }

    /// Moves unconsumed input to the front and reads more; returns the bytes read (0 at end of file).
    private func refill() throws(ReadError) -> Int {
        let base = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let kept = Int(stream.pointee.avail_in)
        if kept > 0, let next = stream.pointee.next_in, next != base { memmove(base, next, kept) }
        var n: Int
        if !prefix.isEmpty {
            n = min(prefix.count, input.count - kept)
            prefix.withUnsafeBytes { (base + kept).update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n) }
            prefix.removeFirst(n)
        } else {
            do {
                n = try Syscall.read(fd, UnsafeMutableRawBufferPointer(start: base + kept, count: input.count - kept))
            } catch {
                throw ReadError(path: path, offset: fileOffset, cause: .read(error))
            }
        }
        fileOffset += Int64(n)
        stream.pointee.next_in = base
        stream.pointee.avail_in = UInt32(kept + n)
        return n
    }
}
