import Glibc

/// Writes into room already reserved in an `OutputBuffer`: a plain struct over a pointer, so per-byte
/// work costs no reference counting and no exclusivity checks. Callers reserve an upper bound first
/// (`OutputBuffer.write(reserving:_:)`); JSON escaping needs at most 6 bytes per input byte.
public struct ByteCursor {
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @usableFromInline
    init(_ start: UnsafeMutablePointer<UInt8>, room: Int) {
        position = start
        end = start + room
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        assert(position < end, "ByteCursor: reserved room exceeded")
        position.pointee = byte
        position += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        assert(position + bytes.count <= end, "ByteCursor: reserved room exceeded")
        memcpy(position, base, bytes.count)
        position += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A decimal integer, without building a String (at most 20 bytes).
    public mutating func append(decimal value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        var digits = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digits += 1 }
        var p = position + digits
        position = p
        repeat {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        } while magnitude > 0
    }

    /// Exactly 16 lower-case hex digits.
    public mutating func append(hex value: UInt64) {
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64((15 - i) * 4)) & 0xF
            position[i] = nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
        }
        position += 16
    }
}
