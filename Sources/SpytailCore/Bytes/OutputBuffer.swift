/// A growable byte buffer that formatters append to; reused across records and drained in batches,
/// so one record costs no allocation and one batch costs one write(2).
///
/// Hot paths write through a `ByteCursor` (`write(reserving:_:)`); the `append` methods are
/// conveniences for cold paths. Pointer code lives here and in `ByteCursor*.swift`, with their own tests.
public final class OutputBuffer {
    // Written once per record or more: unchecked exclusivity, as in `EntryPipeline` (one thread at a time,
    // no inout access escapes).
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Number of bytes written so far.
    @exclusivity(unchecked) public private(set) var count: Int = 0

    public init(capacity: Int = 64 * 1024) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written so far, valid until the next mutation.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// A copy of the bytes written so far (for tests and small outputs).
    public var array: [UInt8] { Array(bytes) }

    public func removeAll() { count = 0 }

    /// Drops the first `n` bytes (those a failed write did get out), keeping the rest in order.
    public func removeFirst(_ n: Int) {
        let n = min(max(0, n), count)
        guard n > 0 else { return }
        (storage).update(from: storage + n, count: count - n)
        count -= n
    }

    /// Reserves `maxBytes`, lets `body` write at most that many through a cursor, and keeps what it wrote.
    @inline(__always)
    public func write(reserving maxBytes: Int, _ body: (inout ByteCursor) -> Void) {
        if count + maxBytes > capacity { grow(toAtLeast: count + maxBytes) }
        let start = storage + count
        var cursor = ByteCursor(start, room: maxBytes)
        body(&cursor)
        count += cursor.position - start
    }

    /// The record from `start` to the end began with a placeholder of `headerWidth` bytes (digits and a
    /// space): writes the length of what follows it there (RFC 6587 octet counting, `LEN SP`) and closes up
    /// the unused digits.
    public func fixOctetCount(at start: Int, headerWidth: Int) {
        let length = count - start - headerWidth
        var digits: [UInt8] = []
        var rest = length
        repeat {
            digits.insert(UInt8(ascii: "0") + UInt8(rest % 10), at: 0)
            rest /= 10
        } while rest > 0
        let shift = headerWidth - digits.count - 1
        precondition(shift >= 0, "octet count wider than its placeholder")
        let base = storage + start
        for (i, digit) in digits.enumerated() { base[shift + i] = digit }
        base[shift + digits.count] = UInt8(ascii: " ")
        if shift > 0 {
            (base).update(from: base + shift, count: count - start - shift)
            count -= shift
        }
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    public func append(_ byte: UInt8) { write(reserving: 1) { $0.append(byte) } }
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) { write(reserving: bytes.count) { $0.append(bytes) } }
    public func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }
    public func append(_ text: StaticString) { write(reserving: text.utf8CodeUnitCount) { $0.append(text) } }

    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    public func append(decimal value: Int64) { write(reserving: 20) { $0.append(decimal: value) } }
    public func append(hex value: UInt64) { write(reserving: 16) { $0.append(hex: value) } }

    /// Appends `bytes` escaped for the inside of a JSON string (no surrounding quotes).
    public func appendJSONEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(reserving: ByteCursor.jsonRoom(bytes.count)) { $0.appendJSONEscaped(bytes) }
    }

    /// Appends `"` + escaped bytes + `"`.
    public func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(reserving: ByteCursor.jsonRoom(bytes.count) + 2) { $0.appendJSONString(bytes) }
    }

    public func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString($0) }
    }
}
