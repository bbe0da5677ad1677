import Glibc

/// A file that could not be read, or not to its end: which file, where, and why.
public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        case open(Errno)
        case read(Errno)
        case notRegularFile(String)
        /// The inflater rejected the data; what it said.
        case corruptGzip(String)
        /// The file ended inside a gzip member.
        case truncatedGzip
        /// Bytes after the last gzip member that are not another member.
        case trailingGarbage
        /// The file no longer starts with the line it was read by (replaced or rewritten since).
        case replaced
    }

    public let path: String
    /// Byte offset in the file where it went wrong (compressed offset for gzip), when known.
    public let offset: Int64?
    public let cause: Cause

    /// The open failed for want of a descriptor (EMFILE: the process's limit; ENFILE: the system's). Says nothing
    /// of the file: it is to be opened again once one is free, not taken for gone or empty.
    public var wantsDescriptor: Bool {
        if case .open(let errno) = cause { errno.isOutOfDescriptors } else { false }
    }

    public init(path: String, offset: Int64? = nil, cause: Cause) {
        self.path = path
        self.offset = offset
        self.cause = cause
    }

    public var description: String {
        let at = offset.map { " at offset \($0)" } ?? ""
        switch cause {
        case .open(let errno): return "\(path): cannot open: \(errno)"
        case .read(let errno): return "\(path): read failed\(at): \(errno)"
        case .notRegularFile(let kind): return "\(path): not a regular file (\(kind))"
        case .corruptGzip(let message): return "\(path): corrupt gzip data\(offset.map { " at compressed offset \($0)" } ?? ""): \(message)"
        case .truncatedGzip: return "\(path): gzip data ends early (truncated file?)\(offset.map { " at compressed offset \($0)" } ?? "")"
        case .replaced: return "\(path): no longer holds the content that was read (replaced or rewritten since)"
        case .trailingGarbage: return "\(path): bytes after the last gzip member\(offset.map { " at compressed offset \($0)" } ?? "") are not gzip data"
        }
    }
}
