import Glibc
import SpytailCore
@testable import SpytailIO

/// The run's output file on a disk that can fill up and lose power. Bytes written reach the real file (as the
/// page cache holds them); a full disk takes what room it has left and refuses the rest (ENOSPC, a partial
/// write, as `FileDescriptorWriter` reports it); a sync (`ByteWriter.sync`, which the run makes before each
/// durable checkpoint save) makes what the file holds durable, unless syncs fail; a power loss cuts the file back to its length at
/// the last sync. It stands where the config's output stands, opened through the run's `RemoteOutputOpener`, so
/// the simulator sees each sync.
final class SimulatedDisk {
    let path: String
    /// The file's length at the last sync: what a power loss leaves.
    private(set) var syncedLength = 0
    /// Bytes the disk still takes; nil: room enough.
    var room: Int?
    /// Syncs fail (EIO), as a failing disk's do: nothing more becomes durable.
    var syncFails = false

    init(path: String) { self.path = path }

    func open(vocabulary: Vocabulary) throws(SinkError) -> OpenOutput {
        OpenOutput(formatter: JSONLinesFormatter(vocabulary: vocabulary), writer: File(try .appending(to: path), disk: self))
    }

    /// The power went: what was not synced is gone.
    func powerLoss() { _ = truncate(path, off_t(syncedLength)) }

    /// The output as the run writes it: appended to the file, synced through it.
    final class File: ByteWriter {
        let file: FileDescriptorWriter
        unowned let disk: SimulatedDisk

        init(_ file: FileDescriptorWriter, disk: SimulatedDisk) {
            self.file = file
            self.disk = disk
        }

        var name: String { file.name }
        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
            guard let room = disk.room else { return try file.write(bytes) }
            let taken = min(room, bytes.count)
            if taken > 0 { try file.write(UnsafeBufferPointer(rebasing: bytes[..<taken])) }
            disk.room = room - taken
            if taken < bytes.count { throw SinkError(destination: name, cause: .noSpace, written: taken) }
        }

        func sync() throws(SinkError) {
            if disk.syncFails { throw SinkError(destination: name, cause: .other(errno: EIO, message: "cannot sync to disk: EIO")) }
            try file.sync()
            disk.syncedLength = Syscall.stat(disk.path).map { Int($0.st_size) } ?? 0
        }
    }
}
