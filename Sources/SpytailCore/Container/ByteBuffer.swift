/// Bytes in storage of their own, handed between a container reader's decode buffer and a joiner's held
/// lines by exchanging the buffers rather than copying the bytes (`HeldLine.hold(_:offset:truncated:maxLineBytes:decodedBy:)`).
/// Used by one file's reading thread only, several times a line: unchecked exclusivity (no inout access escapes;
/// checked, the accesses were 4 % of a Docker scan's time, all on the reading thread).
final class ByteBuffer {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var capacity: Int

    init(capacity: Int = 1) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for at least `count` bytes; what the buffer held is not kept when it grows.
    @inline(__always)
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = max(count, 2 * capacity)
        base = .allocate(capacity: capacity)
    }
}
