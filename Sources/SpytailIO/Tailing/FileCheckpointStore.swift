import Glibc
import SpytailCore

/// Checkpoints in one JSON file, replaced atomically: written to `path.tmp`, fsync'ed when durable,
/// renamed over `path` (and the folder fsync'ed). A damaged file is kept as `path.corrupt` for a look.
public final class FileCheckpointStore: CheckpointStore {
    public let path: String

    public init(path: String) { self.path = path }

    public func load() throws(CheckpointStoreError) -> SavedPositions {
        guard Syscall.stat(path) != nil else { return SavedPositions() }
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.readAll(path)
        } catch {
            throw CheckpointStoreError(description: "\(path): cannot read checkpoints: \(error)")
        }
        do {
            return try CheckpointCodec.decode(bytes)
        } catch {
            let kept: String
            do throws(Errno) {
                try Syscall.rename(path, path + ".corrupt")
                kept = "kept as \(path).corrupt"
            } catch {
                kept = "could not be set aside as \(path).corrupt (\(error))"
            }
            throw CheckpointStoreError(description: "\(path): damaged checkpoint file (\(error)); \(kept), starting without it")
        }
    }

    public func save(_ saved: SavedPositions, durable: Bool) throws(CheckpointStoreError) {
        let temporary = path + ".tmp"
        let bytes = CheckpointCodec.encode(saved)
        do throws(Errno) {
            let fd = try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
            defer { Syscall.close(fd) }
            var failure: Errno?
            bytes.withUnsafeBytes { raw in
                do throws(Errno) { try Syscall.writeAll(fd, raw) } catch { failure = error }
            }
            if let failure { throw failure }
            if durable { try Syscall.fsync(fd) }
        } catch {
            throw CheckpointStoreError(description: "\(temporary): cannot write checkpoints: \(error)")
        }
        do throws(Errno) {
            try Syscall.rename(temporary, path)
        } catch {
            throw CheckpointStoreError(description: "\(path): cannot replace checkpoints: \(error)")
        }
        guard durable else { return }
        // The rename is durable once the folder is.
        do throws(Errno) {
            let fd = try Syscall.open(Paths.parent(of: path), O_RDONLY | O_DIRECTORY)
            defer { Syscall.close(fd) }
            try Syscall.fsync(fd)
        } catch {
            throw CheckpointStoreError(description: "\(Paths.parent(of: path)): cannot make the checkpoint rename durable: \(error)")
        }
    }
}
