import Glibc
import SpytailCore

/// Opens a file for reading and picks the reader by content: gzip's magic bytes `1f 8b`, never the name.
public enum FileOpener {
    /// The path that means standard input.
    public static let standardInput = "-"

    /// Opens `path` (a regular file, or `-` for standard input) and returns its reader.
    public static func open(_ path: String) throws(ReadError) -> any ByteSource {
        let fd: Int32
        if path == standardInput {
            fd = dup(STDIN_FILENO)
        } else {
            fd = try openRegularFile(path).fd
        }
        let head = try readMagic(fd, path)
        if isGzip(head) {
            return GzipReader(fd: fd, path: path, prefix: head)
        }
        return PlainFileReader(fd: fd, path: path, prefix: head)
    }

    /// Whether `path` is a readable regular file that is not gzip (one that a writer may still append to).
    public static func isPlain(_ path: String) -> Bool { contentSize(path)?.isPlain ?? false }

    /// Whether the file open at `fd` starts with gzip's magic bytes (read with pread: the offset stays).
    static func startsWithGzipMagic(_ fd: Int32) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 2)
        let n = (try? bytes.withUnsafeMutableBytes { (buffer) throws(Errno) in try Syscall.pread(fd, buffer, at: 0) }) ?? 0
        return isGzip(Array(bytes[..<max(0, n)]))
    }

    /// gzip's magic bytes at the start of `head`.
    private static func isGzip(_ head: [UInt8]) -> Bool { head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B }

    /// The size of `path`'s content as far as can be told without reading it: a plain file's size, or a gzip
    /// file's trailer (its last four bytes: the content's size modulo 2³²); nil when it cannot be read, or is a
    /// gzip file too short to hold a member yet (being written: its arrival comes later).
    public static func contentSize(_ path: String) -> ChainResume.Size? {
        guard let (fd, info) = try? openRegularFile(path) else { return nil }
        defer { Syscall.close(fd) }
        guard startsWithGzipMagic(fd) else { return .plain(Int64(info.st_size)) }
        var bytes = [UInt8](repeating: 0, count: 4)
        let shortestMember = 18  // a 10-byte header, the 8-byte trailer
        guard info.st_size >= shortestMember,
              (try? bytes.withUnsafeMutableBytes { (buffer) throws(Errno) in try Syscall.pread(fd, buffer, at: Int64(info.st_size) - 4) }) == 4 else {
            return nil
        }
        return .gzip(isize: UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
    }

    /// Opens `path` read-only; refuses anything but a regular file (a directory, a FIFO …) with a message.
    public static func openRegularFile(_ path: String) throws(ReadError) -> (fd: Int32, info: Glibc.stat) {
        let fd: Int32
        do { fd = try Syscall.open(path, O_RDONLY) } catch { throw ReadError(path: path, cause: .open(error)) }
        let info: Glibc.stat
        do { info = try Syscall.fstat(fd) } catch {
            Syscall.close(fd)
            throw ReadError(path: path, cause: .open(error))
        }
        guard info.isRegularFile else {
            Syscall.close(fd)
            throw ReadError(path: path, cause: .notRegularFile(info.kindDescription))
        }
        return (fd, info)
    }

    /// Reads up to two bytes (works on pipes too, which cannot seek back).
    private static func readMagic(_ fd: Int32, _ path: String) throws(ReadError) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: 2)
        var count = 0
        while count < 2 {
            let n: Int
            do {
                let start = count
                n = try Syscall.retrying { head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + start, 2 - start) } }
            } catch {
                Syscall.close(fd)
                throw ReadError(path: path, offset: Int64(count), cause: .read(error))
            }
            if n == 0 { break }
            count += n
        }
        return Array(head[..<count])
    }
}
