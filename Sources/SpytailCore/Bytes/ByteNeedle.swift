import Glibc

/// A byte string to look for in a line, built once from the config and compared with memmem/memcmp.
public struct ByteNeedle: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether `haystack` starts with the needle.
    @inlinable
    public func isPrefix(of haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            needle.count == 0 || memcmp(haystack.baseAddress!, needle.baseAddress!, needle.count) == 0
        }
    }

    /// Whether the needle occurs anywhere in `haystack`: memchr finds candidates for the first byte
    /// (SIMD in glibc), memcmp checks the rest.
    @inlinable
    public func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            guard let first = needle.first, let base = haystack.baseAddress else { return true }
            let rest = needle.count - 1
            var cursor = base
            let lastStart = base + (haystack.count - needle.count)
            while cursor <= lastStart {
                guard let hit = memchr(cursor, Int32(first), lastStart - cursor + 1) else { return false }
                let candidate = hit.assumingMemoryBound(to: UInt8.self)
                if rest == 0 || memcmp(candidate + 1, needle.baseAddress! + 1, rest) == 0 { return true }
                cursor = UnsafePointer(candidate) + 1
            }
            return false
        }
    }

}
