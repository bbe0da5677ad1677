import Foundation
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// The checkpoint files: the durable one, and `.recent` for the saves in between, which counts only in the boot
/// it was written in and beside the durable file it followed. A power loss (another boot) can keep `.recent`
/// and lose the output bytes it names; the durable file is written only after the outputs are synced.
struct FileCheckpointStoreTests {
    func positions(_ offset: Int64) -> SavedPositions {
        SavedPositions(checkpoints: [Checkpoint(path: "/logs/app.log", identity: FileIdentity(device: 1, inode: 2),
                                                fingerprint: Fingerprint(value: 7), offset: offset, tailHash: 0)])
    }

    /// A store in boot-1 that saved offset 10 durably, then 20 between syncs.
    static func durableThenRecent() throws -> (TemporaryDirectory, FileCheckpointStore) {
        let dir = TemporaryDirectory()
        let store = FileCheckpointStore(path: dir.file("checkpoints.json"), boot: "boot-1")
        do {
            try store.save(Self().positions(10), durable: true)
            try store.save(Self().positions(20), durable: false)
        } catch {
            dir.remove()
            throw error
        }
        return (dir, store)
    }

    @Test func aSaveBetweenSyncsIsUsedAfterACrashOfTheProcess() throws {
        let (dir, store) = try Self.durableThenRecent()
        defer { dir.remove() }
        let path = store.path
        #expect(try CheckpointCodec.decode(ConfigFile.readAll(path)) == positions(10), "the durable file is not rewritten")
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == positions(20))
    }

    @Test func afterAPowerLossOnlyTheDurableSaveCounts() throws {
        let (dir, store) = try Self.durableThenRecent()
        defer { dir.remove() }
        let path = store.path
        #expect(try FileCheckpointStore(path: path, boot: "boot-2").load() == positions(10))
        #expect(try FileCheckpointStore(path: path, boot: "").load() == positions(10), "an unknown boot never trusts .recent")
    }

    /// Someone replaced or removed the checkpoint file (to start over, or from a backup): the saves made after
    /// the old one do not apply to it.
    @Test func aRecentSaveBesideAReplacedOrRemovedCheckpointFileIsPassedOver() throws {
        let (dir, store) = try Self.durableThenRecent()
        defer { dir.remove() }
        let path = store.path
        let copy = try ConfigFile.readAll(path)
        try Syscall.rename(path, path + ".old")  // still there: its inode cannot be the new file's
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == SavedPositions())
        dir.write("checkpoints.json", String(decoding: copy, as: UTF8.self))  // a new file, same content
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == positions(10))
    }

    /// A durable save removes `.recent` first: no older save is left beside a newer durable file.
    @Test func aDurableSaveRemovesTheSavesBeforeIt() throws {
        let (dir, store) = try Self.durableThenRecent()
        defer { dir.remove() }
        let path = store.path
        #expect(Syscall.stat(path + ".recent") != nil)
        try store.save(positions(30), durable: true)
        #expect(Syscall.stat(path + ".recent") == nil)
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == positions(30))
    }

    /// No durable file yet (its first save failed): `.recent` counts while there is still none.
    @Test func savesBeforeAnyDurableOneCountInTheSameBoot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("checkpoints.json")
        try FileCheckpointStore(path: path, boot: "boot-1").save(positions(20), durable: false)
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == positions(20))
        #expect(try FileCheckpointStore(path: path, boot: "boot-2").load() == SavedPositions())
    }

    /// A damaged `.recent` costs re-reading since the durable save, never the durable save itself.
    @Test func aDamagedRecentFileFallsBackToTheDurableOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("checkpoints.json")
        try FileCheckpointStore(path: path, boot: "boot-1").save(positions(10), durable: true)
        dir.write("checkpoints.json.recent", "{\"version\":1,\"recent\":")
        #expect(try FileCheckpointStore(path: path, boot: "boot-1").load() == positions(10))
    }

    @Test func theBootIdIsTheKernels() {
        let boot = FileCheckpointStore.currentBoot()
        #expect(boot.count == 36 && boot.split(separator: "-").count == 5, "\(boot)")
    }

    @Test func theStampRoundTripsThroughTheCodec() throws {
        let stamp = RecentStamp(boot: "b", follows: FileIdentity(device: 2049, inode: 1_234_567))
        let decoded = try CheckpointCodec.decodeStamped(CheckpointCodec.encode(positions(5), stamp: stamp))
        #expect(decoded.saved == positions(5) && decoded.stamp == stamp)
        #expect(try CheckpointCodec.decodeStamped(CheckpointCodec.encode(positions(5))).stamp == nil)
        let none = RecentStamp(boot: "b", follows: nil)
        #expect(try CheckpointCodec.decodeStamped(CheckpointCodec.encode(positions(5), stamp: none)).stamp == none)
    }
}
