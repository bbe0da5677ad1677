import Glibc
import SpytailCore

/// Enough of a file's status to notice that it was replaced or rewritten.
struct FileStamp: Equatable {
    let identity: FileIdentity, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int

    init?(_ path: String) {
        guard let info = Syscall.stat(path) else { return nil }
        self.init(info)
    }

    /// The file open at `descriptor` (nil: fstat failed).
    init?(descriptor: Int32) {
        guard let info = try? Syscall.fstat(descriptor) else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
