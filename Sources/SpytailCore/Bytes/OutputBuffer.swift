import Glibc

/// A growable byte buffer that formatters append to; reused across records and drained in batches,
/// so one record costs no allocation and one batch costs one write(2).
///
/// Pointer code lives here and in `OutputBuffer+JSON.swift`; both have their own tests.
public final class OutputBuffer {
    var storage: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// Number of bytes written so far.
    public private(set) var count: Int = 0

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

    /// Makes room for `extra` more bytes and returns where they go.
    public func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(toAtLeast: count + extra) }
        return storage + count
    }

    /// Marks `n` bytes written after `reserve`.
    public func commit(_ n: Int) { count += n }

    func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    public func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends a decimal integer without building a String.
    public func append(decimal value: Int64) {
        let out = reserve(20)
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let n = withUnsafeMutableBytes(of: &digits) { raw -> Int in
            var i = 0
            repeat {
                raw[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                i += 1
            } while magnitude > 0
            return i
        }
        var written = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); written = 1 }
        withUnsafeBytes(of: &digits) { raw in
            for i in 0..<n { out[written + i] = raw[n - 1 - i] }
        }
        count += written + n
    }

    /// Appends `value` as exactly 16 lower-case hex digits.
    public func append(hex value: UInt64) {
        let out = reserve(16)
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64((15 - i) * 4)) & 0xF
            out[i] = nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
        }
        count += 16
    }
}
