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

    /// Whether the needle occurs anywhere in `haystack`. Short haystacks (a field such as `[db] [tca] `) are
    /// scanned in place, a candidate being a position whose first and last bytes match: no library call,
    /// and a needle such as `[tca]` is not stopped at every `[`. In longer ones memchr finds candidates for
    /// the first byte (SIMD in glibc) and memcmp checks the rest.
    @inlinable
    public func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { Self.occurs($0, in: haystack) }
    }

    /// Whether `needle` occurs in `haystack` (the same search on a needle held elsewhere).
    @inlinable
    public static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= needle.count else { return false }
        guard needle.count > 0, let base = haystack.baseAddress else { return true }
        if haystack.count < Self.shortHaystack { return Self.scan(haystack, for: needle) }
        let rest = needle.count - 1
        var cursor = base
        let lastStart = base + (haystack.count - needle.count)
        while cursor <= lastStart {
            guard let hit = memchr(cursor, Int32(needle[0]), lastStart - cursor + 1) else { return false }
            let candidate = hit.assumingMemoryBound(to: UInt8.self)
            if rest == 0 || memcmp(candidate + 1, needle.baseAddress! + 1, rest) == 0 { return true }
            cursor = UnsafePointer(candidate) + 1
        }
        return false
    }

    /// Whether `haystack` starts with `needle`.
    @inlinable
    public static func isPrefix(_ needle: UnsafeBufferPointer<UInt8>, of haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return needle.count == 0 || memcmp(haystack.baseAddress!, needle.baseAddress!, needle.count) == 0
    }

    /// Below this many bytes a haystack is scanned in place.
    @usableFromInline static let shortHaystack = 64

    /// The in-place scan (`needle` not empty, `haystack` at least as long).
    @inlinable
    static func scan(_ haystack: UnsafeBufferPointer<UInt8>, for needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = needle.count
        let first = needle[0], last = needle[n - 1]
        var i = 0
        while i <= haystack.count - n {
            if haystack[i] == first && haystack[i + n - 1] == last {
                var k = 1
                while k < n - 1 && haystack[i + k] == needle[k] { k += 1 }
                if k >= n - 1 { return true }
            }
            i += 1
        }
        return false
    }
}
