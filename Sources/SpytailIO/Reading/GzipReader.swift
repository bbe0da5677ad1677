import CIsal
import Glibc

/// Streams the decompressed bytes of a gzip file with ISA-L's igzip inflate (about 4× zlib's speed on
/// this workload: see the README's benchmark): every member of a multi-member file in turn; trailing zero
/// padding accepted; each member's CRC and length checked. A truncated or corrupt file yields what
/// decompressed cleanly, then a `ReadError` naming the compressed offset.
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
    private let inflater: UnsafeMutablePointer<inflate_state>  // large (~40 KB) and self-referencing: kept off the stack
    private let input: UnsafeMutableRawBufferPointer
    private var prefix: [UInt8]
    /// File offset just past the bytes read into `input` so far.
    private var fileOffset: Int64 = 0
    private var state = State.betweenMembers
    /// Decompressed bytes handed out so far.
    public private(set) var produced: Int64 = 0
    /// Where to record seek points while reading (`spytail explore`'s indexing); nil: none.
    public var seekPoints: GzipSeekPoints?

    public var isCompressed: Bool { true }

    /// `prefix`: bytes the opener already read from the start of the file.
    public init(fd: Int32, path: String, prefix: [UInt8] = [], inputSize: Int = 128 * 1024) {
        self.fd = fd
        self.path = path
        self.prefix = prefix
        input = .allocate(byteCount: max(inputSize, prefix.count), alignment: 64)
        inflater = .allocate(capacity: 1)
        inflater.initialize(to: inflate_state())
        isal_inflate_init(inflater)
        inflater.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        inflater.pointee.avail_in = 0
    }

    /// A reader that starts at `point`, one of `path`'s seek points: it reads on from there as the reader that
    /// recorded the point did. The caller checked that the file is still the one the point was taken in.
    public convenience init(fd: Int32, path: String, resumingAt point: GzipSeekPoints.Point, inputSize: Int = 128 * 1024) throws(ReadError) {
        self.init(fd: fd, path: path, inputSize: inputSize)
        if lseek(fd, off_t(point.compressedOffset), SEEK_SET) < 0 {
            throw ReadError(path: path, offset: point.compressedOffset, cause: .read(Errno(errno)))
        }
        point.state.withUnsafeBytes { UnsafeMutableRawPointer(inflater).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        inflater.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        inflater.pointee.avail_in = 0
        fileOffset = point.compressedOffset
        produced = point.uncompressedOffset
        state = .inMember
    }

    deinit {
        inflater.deinitialize(count: 1)
        inflater.deallocate()
        input.deallocate()
        Syscall.close(fd)
    }

    /// Compressed offset of the next byte the inflater will consume.
    private var consumedOffset: Int64 { fileOffset - Int64(inflater.pointee.avail_in) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        switch state {
        case .finished: return 0
        case .failed(let error):
            state = .finished
            throw error
        case .inMember, .betweenMembers: break
        }
        inflater.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        inflater.pointee.avail_out = UInt32(buffer.count)
        do {
            try inflateUntilFull()
        } catch {
            let produced = buffer.count - Int(inflater.pointee.avail_out)
            if produced == 0 {
                state = .finished
                throw error
            }
            state = .failed(error)
            self.produced += Int64(produced)
            return produced
        }
        let produced = buffer.count - Int(inflater.pointee.avail_out)
        self.produced += Int64(produced)
        if let seekPoints, case .inMember = state {
            seekPoints.offer(at: self.produced) { seekPoint() }
        }
        return produced
    }

    /// The inflater's state now, as a seek point: its fields and the part of its output buffer in use (the
    /// history back-references reach into).
    private func seekPoint() -> GzipSeekPoints.Point {
        let historyStart = Int(spytail_isal_inflate_history_offset())
        let inUse = historyStart + Int(max(0, inflater.pointee.tmp_out_valid))
        let bytes = [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(inflater), count: min(inUse, MemoryLayout<inflate_state>.size)))
        return GzipSeekPoints.Point(uncompressedOffset: produced, compressedOffset: consumedOffset, state: bytes)
    }

    private func inflateUntilFull() throws(ReadError) {
        while inflater.pointee.avail_out > 0 {
            if case .betweenMembers = state {
                guard try startMember() else { return }
            }
            let (inBefore, outBefore) = (inflater.pointee.avail_in, inflater.pointee.avail_out)
            let rc = isal_inflate(inflater)
            if rc < 0 { throw ReadError(path: path, offset: consumedOffset, cause: .corruptGzip(Self.describe(rc))) }
            if inflater.pointee.block_state == ISAL_BLOCK_FINISH {
                state = .betweenMembers
                continue
            }
            if inflater.pointee.avail_out == 0 { return }
            // It stopped short of a full buffer: it wants input. At the end of the file, a call that moves
            // nothing means the member was cut short.
            let moved = inflater.pointee.avail_in != inBefore || inflater.pointee.avail_out != outBefore
            if try refill() == 0 && !moved && inflater.pointee.avail_in == 0 {
                throw ReadError(path: path, offset: consumedOffset, cause: .truncatedGzip)
            }
        }
    }

    /// At a member boundary: starts the next member, or ends the file on zero padding or at its end.
    /// Returns false when the file is finished.
    private func startMember() throws(ReadError) -> Bool {
        if inflater.pointee.avail_in < 2 { _ = try refill() }
        let available = Int(inflater.pointee.avail_in)
        if available == 0 {
            state = .finished
            return false
        }
        let next = inflater.pointee.next_in!
        if next[0] == 0x1F && (available < 2 || next[1] == 0x8B) {
            let (kept, from) = (inflater.pointee.avail_in, inflater.pointee.next_in)
            isal_inflate_reset(inflater)
            inflater.pointee.crc_flag = UInt32(ISAL_GZIP)
            (inflater.pointee.avail_in, inflater.pointee.next_in) = (kept, from)
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
            let next = inflater.pointee.next_in!
            for i in 0..<Int(inflater.pointee.avail_in) where next[i] != 0 { return false }
            inflater.pointee.avail_in = 0
        } while try refill() > 0
        return true
    }

    /// Moves unconsumed input to the front and reads more; returns the bytes read (0 at end of file).
    private func refill() throws(ReadError) -> Int {
        let base = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let kept = Int(inflater.pointee.avail_in)
        if kept > 0, let next = inflater.pointee.next_in, next != base { memmove(base, next, kept) }
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
        inflater.pointee.next_in = base
        inflater.pointee.avail_in = UInt32(kept + n)
        return n
    }

    /// What an ISA-L inflate error code means.
    static func describe(_ code: Int32) -> String {
        switch code {
        case ISAL_INVALID_BLOCK: return "invalid deflate block"
        case ISAL_INVALID_SYMBOL: return "invalid deflate symbol"
        case ISAL_INVALID_LOOKBACK: return "invalid distance too far back"
        case ISAL_INVALID_WRAPPER: return "invalid gzip header"
        case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method"
        case ISAL_INCORRECT_CHECKSUM: return "incorrect data check (CRC or length)"
        default: return "inflate error \(code)"
        }
    }
}
