import Glibc

/// A C `errno` value with its message, so errors keep their cause instead of a bare -1.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    /// The call wanted a descriptor and none was free (EMFILE: the process's limit; ENFILE: the system's). Says
    /// nothing of the file: it is to be opened again once one is free, not taken for gone or empty.
    public var isOutOfDescriptors: Bool { rawValue == EMFILE || rawValue == ENFILE }
}
