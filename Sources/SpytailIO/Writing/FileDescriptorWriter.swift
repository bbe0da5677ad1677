import Glibc
import SpytailCore

/// Writes output bytes to a file descriptor: standard output, or a file opened for appending.
///
/// A file output is reopened (created again, 0640) when another tool removed or renamed it (its own
/// rotation): before each batch one `stat` of the path is compared with the open descriptor.
public final class FileDescriptorWriter: ByteWriter {
    public let name: String
    private(set) var fd: Int32
    let ownsDescriptor: Bool
    /// Times the file was found moved or removed and opened again.
    public private(set) var reopenCount = 0

    init(fd: Int32, name: String, ownsDescriptor: Bool) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    deinit { if ownsDescriptor && fd >= 0 { Syscall.close(fd) } }

    public static func standardOutput() -> FileDescriptorWriter {
        FileDescriptorWriter(fd: STDOUT_FILENO, name: "stdout", ownsDescriptor: false)
    }

    /// Opens `path` for appending, creating it with mode 0640 (less the umask). A file that ends inside a record
    /// gets a newline before the first bytes written (see `endsInsideRecord`).
    public static func appending(to path: String) throws(SinkError) -> FileDescriptorWriter {
        let writer: FileDescriptorWriter
        do {
            writer = FileDescriptorWriter(fd: try Syscall.open(path, O_WRONLY | O_CREAT | O_APPEND, 0o640), name: path, ownsDescriptor: true)
        } catch {
            throw SinkError(destination: path, cause: .other(errno: error.rawValue, message: "cannot open: \(error)"))
        }
        writer.endsInsideRecord = writer.lastByteIsNotANewline()
        return writer
    }

    /// The file ends inside a record: one cut short (a full disk took part of a write, then the process ended
    /// before the rest got out) would run into the first record written now and spoil it too, so that record is
    /// preceded by a newline and the torn one stays a line of its own. Its record comes again whole: no checkpoint
    /// counted it. (Written with the first bytes, not at the open: the disk may still be full then.)
    private(set) var endsInsideRecord = false

    private func lastByteIsNotANewline() -> Bool {
        guard let info = try? Syscall.fstat(fd), info.isRegularFile, info.st_size > 0 else { return false }
        let reader = Glibc.open(name, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return false }  // write-only to us: nothing to look at
        defer { Syscall.close(reader) }
        var last: UInt8 = 0
        return Glibc.pread(reader, &last, 1, info.st_size - 1) == 1 && last != UInt8(ascii: "\n")
    }

    /// Opens the path again if it no longer names the file we hold.
    private func reopenIfMoved() throws(SinkError) {
        guard let held = try? Syscall.fstat(fd) else { return }
        if let atPath = Syscall.stat(name), atPath.st_dev == held.st_dev, atPath.st_ino == held.st_ino { return }
        let fresh = try Self.appending(to: name)
        Syscall.close(fd)
        fd = fresh.fd
        endsInsideRecord = fresh.endsInsideRecord
        fresh.fd = -1  // the descriptor now belongs to self
        reopenCount += 1
    }

    /// Whether the descriptor is a terminal (colour and progress are for people only).
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// Waits until the bytes written so far are on the disk (`fdatasync`).
    public func sync() throws(SinkError) {
        do {
            _ = try Syscall.retrying { fdatasync(fd) }
        } catch {
            // A pipe, a terminal, /dev/null: nothing that keeps bytes, nothing to sync.
            if error.rawValue == EINVAL || error.rawValue == EROFS { return }
            throw SinkError(destination: name, cause: .other(errno: error.rawValue, message: "cannot sync to disk: \(error)"))
        }
    }

    /// Writes all of `bytes`; a failure says how many did get out (`SinkError.written`).
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        if ownsDescriptor { try reopenIfMoved() }
        if endsInsideRecord {
            // None of `bytes` is out if this fails: the caller keeps them all and tries again.
            try [UInt8(ascii: "\n")].withUnsafeBufferPointer { (newline) throws(SinkError) in try writeAll(newline) }
            endsInsideRecord = false
        }
        try writeAll(bytes)
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        var written = 0
        while written < bytes.count {
            do {
                written += try Syscall.retrying { Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written) }
            } catch {
                switch error.rawValue {
                case EPIPE: throw SinkError(destination: name, cause: .closedByReader, written: written)
                case ENOSPC, EDQUOT: throw SinkError(destination: name, cause: .noSpace, written: written)
                default: throw SinkError(destination: name, cause: .other(errno: error.rawValue, message: error.description), written: written)
                }
            }
        }
    }
}
