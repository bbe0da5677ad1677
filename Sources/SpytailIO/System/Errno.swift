import Glibc

/// A C `errno` value with its message, so errors keep their cause instead of a bare -1.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(rawValue)) }
}
