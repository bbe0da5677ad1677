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

    /// The UTF-8 sequence starting at `start` (a byte ≥ 0x80; `available` bytes readable from there): copied
    /// when it is valid, else U+FFFD for its first byte. Returns how many input bytes it took. The one place
    /// every escaper (JSON, TabSeparated, syslog) turns bytes that are not ASCII into output.
    @inline(__always)
    public mutating func appendUTF8Sequence(_ start: UnsafePointer<UInt8>, available: Int) -> Int {
        let length = UTF8Validation.sequenceLength(start, available: available)
        if length > 0 {
            append(UnsafeBufferPointer(start: start, count: length))
            return length
        }
        append(0xEF); append(0xBF); append(0xBD)
        return 1
    }

    /// A decimal integer, without building a String (at most 20 bytes): two digits per division.
    public mutating func append(decimal value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        var digits = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digits += 1 }
        var p = position + digits
        position = p
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            p -= 2
            p[0] = pairs[pair]
            p[1] = pairs[pair &+ 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) &* 2
            p[-2] = pairs[pair]
            p[-1] = pairs[pair &+ 1]
        } else {
            p[-1] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
        }
    }

    /// "00", "01" … "99" back to back.
    @usableFromInline static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Exactly 16 lower-case hex digits.
    public mutating func append(hex value: UInt64) {
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64((15 - i) * 4)) & 0xF
            position[i] = nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
        }
        position += 16
    }
}
