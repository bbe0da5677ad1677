import Glibc
import SpytailCore

/// Writes output bytes to a file descriptor: standard output, or a file opened for appending.
public final class FileDescriptorWriter: ByteWriter {
    public let name: String
    let fd: Int32
    let ownsDescriptor: Bool

    init(fd: Int32, name: String, ownsDescriptor: Bool) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    deinit { if ownsDescriptor { Syscall.close(fd) } }

    public static func standardOutput() -> FileDescriptorWriter {
        FileDescriptorWriter(fd: STDOUT_FILENO, name: "stdout", ownsDescriptor: false)
    }

    /// Opens `path` for appending, creating it with mode 0640 (less the umask).
    public static func appending(to path: String) throws(SinkError) -> FileDescriptorWriter {
        do {
            let fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_APPEND, 0o640)
            return FileDescriptorWriter(fd: fd, name: path, ownsDescriptor: true)
        } catch {
            throw SinkError(destination: path, cause: .other(errno: error.rawValue, message: "cannot open: \(error)"))
        }
    }

    /// Whether the descriptor is a terminal (colour and progress are for people only).
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// Writes all of `bytes`; a failure says how many did get out (`SinkError.written`).
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
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
