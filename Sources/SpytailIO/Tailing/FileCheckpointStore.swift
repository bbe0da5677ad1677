import Glibc
import SpytailCore

/// Checkpoints in two JSON files, each replaced atomically (written to `….tmp`, renamed over the file):
/// - `path`, the durable one: fsync'ed, renamed, and the folder fsync'ed. The run syncs its file outputs
///   first, so after a power loss it never names lines the outputs lost.
/// - `path.recent`, the saves in between (after every batch, no fsync): after a crash of the process they
///   spare re-reading what went out since the last durable save. Its `RecentStamp` makes it count only in the
///   same boot and beside the same `path` (a power loss can keep it and lose the output bytes before it).
///   Removed before each durable save, so a `path` made later never has an older `.recent` beside it.
/// A damaged `path` is kept as `path.corrupt` for a look; a damaged or stale `.recent` is passed over (the
/// durable save is older: lines are read again, none lost).
public final class FileCheckpointStore: CheckpointStore {
    public let path: String
    /// This boot's id (`/proc/sys/kernel/random/boot_id`); empty when unknown: `.recent` is then never used.
    let boot: String

    public convenience init(path: String) { self.init(path: path, boot: Self.currentBoot()) }

    init(path: String, boot: String) {
        self.path = path
        self.boot = boot
    }

    var recentPath: String { path + ".recent" }

    public func load() throws(CheckpointStoreError) -> SavedPositions {
        let durable = try loadDurable()
        return loadRecent() ?? durable
    }

    public func save(_ saved: SavedPositions, durable: Bool) throws(CheckpointStoreError) {
        if durable {
            // First, so that no `.recent` older than the file about to be written stays beside it.
            do throws(Errno) {
                try Syscall.unlink(recentPath)
            } catch {
                if error.rawValue != ENOENT { throw CheckpointStoreError(description: "\(recentPath): cannot remove: \(error)") }
            }
            try replace(path, with: CheckpointCodec.encode(saved), durable: true)
        } else {
            let stamp = RecentStamp(boot: boot, follows: Syscall.stat(path).map(FileIdentity.init))
            try replace(recentPath, with: CheckpointCodec.encode(saved, stamp: stamp), durable: false)
        }
    }

    private func loadDurable() throws(CheckpointStoreError) -> SavedPositions {
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

    /// The saves since the last durable one, when they still count (same boot, same durable file).
    private func loadRecent() -> SavedPositions? {
        guard let bytes = try? ConfigFile.readAll(recentPath),
              let (saved, stamp) = try? CheckpointCodec.decodeStamped(bytes),
              let stamp, stamp.counts(inBoot: boot, beside: Syscall.stat(path).map(FileIdentity.init))
        else { return nil }
        return saved
    }

    /// Writes `bytes` to `file.tmp` and renames it over `file`; `durable`: fsync'ed first, the folder after.
    private func replace(_ file: String, with bytes: [UInt8], durable: Bool) throws(CheckpointStoreError) {
        let temporary = file + ".tmp"
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
            try Syscall.rename(temporary, file)
        } catch {
            throw CheckpointStoreError(description: "\(file): cannot replace checkpoints: \(error)")
        }
        guard durable else { return }
        // The rename is durable once the folder is.
        do throws(Errno) {
            let fd = try Syscall.open(Paths.parent(of: file), O_RDONLY | O_DIRECTORY)
            defer { Syscall.close(fd) }
            try Syscall.fsync(fd)
        } catch {
            throw CheckpointStoreError(description: "\(Paths.parent(of: file)): cannot make the checkpoint rename durable: \(error)")
        }
    }

    /// The kernel's id of this boot; empty when it cannot be read.
    static func currentBoot() -> String {
        guard let bytes = try? ConfigFile.readAll("/proc/sys/kernel/random/boot_id") else { return "" }
        return String(decoding: bytes.prefix { $0 > 0x20 }, as: UTF8.self)
    }
}
