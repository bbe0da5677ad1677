import Glibc

/// How records are told apart in an output's byte stream: by a newline (JSONEachRow rows, whose JSON
/// escapes every other newline) or by RFC 6587 octet counting (`LEN SP MESSAGE`, syslog frames, whose
/// messages may hold newlines).
enum RecordFraming: Sendable {
    case newline
    case octetCounted

    /// The end of the first whole record at `start` (exclusive), or nil when the bytes end before it does.
    func recordEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        switch self {
        case .newline:
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        case .octetCounted:
            var i = start, length = 0
            while i < bytes.count, bytes[i] != UInt8(ascii: " ") {
                length = length * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
            guard i < bytes.count else { return nil }
            let end = i + 1 + length
            return end <= bytes.count ? end : nil
        }
    }
}
