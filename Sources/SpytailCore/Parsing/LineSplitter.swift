import Glibc

/// Splits a byte stream, pushed in chunks of any size, into lines with memchr.
///
/// Lines that lie inside one chunk are handed out without copying; only a line cut by a chunk
/// boundary is carried over. A line longer than `maxLineBytes` is handed out once, truncated to its
/// first `maxLineBytes` bytes (on a UTF-8 boundary) and flagged; the rest of it is skipped, never split
/// into further lines.
public struct LineSplitter {
    /// What the carried-over bytes are.
    enum Carry {
        /// Collecting the start of a line cut by a chunk boundary.
        case collecting
        /// The line already exceeded the limit: keeping its head, skipping to its newline.
        case skippingRest
    }

    public let maxLineBytes: Int
    private var carry: [UInt8] = []
    private var carryState = Carry.collecting
    /// Stream offset of the next byte to be pushed.
    public private(set) var streamOffset: Int64
    /// Stream offset where the carried line starts.
    private var carryOffset: Int64 = 0
    /// Physical lines handed out so far.
    public private(set) var linesEmitted: Int = 0

    public init(maxLineBytes: Int = 1 << 20, startOffset: Int64 = 0) {
        precondition(maxLineBytes > 0)
        self.maxLineBytes = maxLineBytes
        self.streamOffset = startOffset
    }

    /// Bytes of an unterminated line held back, waiting for its newline.
    public var pendingBytes: Int { carry.count }
    /// Offset where the held-back line starts (valid when `pendingBytes > 0` or skipping).
    public var pendingOffset: Int64 { hasPending ? carryOffset : streamOffset }
    public var hasPending: Bool { !carry.isEmpty || carryState == .skippingRest }

    /// Feeds a chunk; calls `body` for every line it completes.
    public mutating func push<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Line) throws(E) -> Void) throws(E) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        let end = base + chunk.count
        var cursor = base
        while cursor < end {
            let found = memchr(cursor, 0x0A, end - cursor)
            guard let found else {
                hold(UnsafeBufferPointer(start: cursor, count: end - cursor), at: offset(of: cursor, base))
                break
            }
            let newline = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            let piece = UnsafeBufferPointer(start: cursor, count: newline - cursor)
            if hasPending {
                hold(piece, at: offset(of: cursor, base))
                try emitCarry(body)
            } else {
                try emit(piece, at: offset(of: cursor, base), body)
            }
            cursor = newline + 1
        }
        streamOffset += Int64(chunk.count)
    }

    /// End of input: hands out a last line that has no newline (if any).
    public mutating func finish<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        if hasPending { try emitCarry(body) }
    }

    /// Drops a held-back partial line (the file it came from is gone and its end will never come).
    public mutating func discardPending() {
        carry.removeAll(keepingCapacity: true)
        carryState = .collecting
    }

    private func offset(of p: UnsafePointer<UInt8>, _ base: UnsafePointer<UInt8>) -> Int64 {
        streamOffset + Int64(p - base)
    }

    private mutating func hold(_ piece: UnsafeBufferPointer<UInt8>, at offset: Int64) {
        if !hasPending { carryOffset = offset }
        guard carryState == .collecting else { return }
        let room = maxLineBytes - carry.count
        if piece.count <= room {
            carry.append(contentsOf: piece)
        } else {
            carry.append(contentsOf: UnsafeBufferPointer(rebasing: piece[..<room]))
            carryState = .skippingRest
        }
    }

    private mutating func emitCarry<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        let truncated = carryState == .skippingRest
        let offset = carryOffset
        linesEmitted += 1
        // withUnsafeBufferPointer rethrows untyped errors; carry the typed one out in a Result.
        let result: Result<Void, E> = carry.withUnsafeBufferPointer { bytes in
            let kept = truncated ? UTF8Validation.lengthWithoutCutSequence(bytes) : bytes.count
            do throws(E) {
                try Self.deliver(UnsafeBufferPointer(rebasing: bytes[..<kept]), offset, truncated, body)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        carry.removeAll(keepingCapacity: true)
        carryState = .collecting
        try result.get()
    }

    private mutating func emit<E: Error>(_ piece: UnsafeBufferPointer<UInt8>, at offset: Int64,
                               _ body: (Line) throws(E) -> Void) throws(E) {
        linesEmitted += 1
        if piece.count <= maxLineBytes {
            try Self.deliver(piece, offset, false, body)
        } else {
            let head = UnsafeBufferPointer(rebasing: piece[..<maxLineBytes])
            let kept = UTF8Validation.lengthWithoutCutSequence(head)
            try Self.deliver(UnsafeBufferPointer(rebasing: head[..<kept]), offset, true, body)
        }
    }

    private static func deliver<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int64, _ truncated: Bool,
                                          _ body: (Line) throws(E) -> Void) throws(E) {
        var bytes = bytes
        if !truncated, let last = bytes.last, last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        try body(Line(bytes: bytes, offset: offset, truncated: truncated))
    }
}
