import Glibc
import SpytailCore

/// The one place system calls are made from: retries EINTR, turns -1 into a typed `Errno`.
public enum Syscall {
    /// Runs `call` until it is not interrupted by a signal; throws errno when it fails.
    @inline(__always)
    public static func retrying<T: BinaryInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, looping over short writes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try retrying { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// Reads at `offset` without moving the descriptor's position; returns the bytes read (0 at the end).
    public static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try retrying { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Moves the descriptor's position to `offset` from the start.
    public static func seek(_ fd: Int32, to offset: Int64) throws(Errno) {
        _ = try retrying { Glibc.lseek(fd, off_t(offset), SEEK_SET) }
    }

    public static func rename(_ from: String, _ to: String) throws(Errno) {
        _ = try retrying { Glibc.rename(from, to) }
    }

    public static func unlink(_ path: String) throws(Errno) {
        _ = try retrying { Glibc.unlink(path) }
    }

    public static func fsync(_ fd: Int32) throws(Errno) {
        _ = try retrying { Glibc.fsync(fd) }
    }

    public static func fstat(_ fd: Int32) throws(Errno) -> Glibc.stat {
        var info = Glibc.stat()
        _ = try retrying { Glibc.fstat(fd, &info) }
        return info
    }

    /// stat(2) following symlinks; nil when the path does not exist.
    public static func stat(_ path: String) -> Glibc.stat? {
        var info = Glibc.stat()
        return statFollowingLinks(path, &info) == 0 ? info : nil
    }

    /// Whether `path` itself is a symbolic link (lstat(2)).
    public static func isSymlink(_ path: String) -> Bool {
        var info = Glibc.stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    public static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Whether `count` more descriptors can be had now (each opened on /dev/null and closed again).
    public static func canOpenDescriptors(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        for _ in 0..<count {
            let fd = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            opened.append(fd)
        }
        return true
    }

    /// Where an open file is now (`/proc/self/fd/N`), wherever it was renamed to; nil once it is deleted.
    public static func pathOfDescriptor(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? nil : path
    }
}

extension FileIdentity {
    /// The identity `stat` shows.
    public init(_ info: Glibc.stat) { self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
}

extension stat {
    public var isRegularFile: Bool { st_mode & S_IFMT == S_IFREG }
    public var isDirectory: Bool { st_mode & S_IFMT == S_IFDIR }
    /// A word for what the file is, for messages.
    public var kindDescription: String {
        switch st_mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "a regular file"
        }
    }
}

/// stat(2) at file scope, where the name is not shadowed by `Syscall.stat`.
private func statFollowingLinks(_ path: String, _ info: inout Glibc.stat) -> Int32 { stat(path, &info) }
