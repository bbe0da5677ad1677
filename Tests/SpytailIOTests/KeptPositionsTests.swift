import Testing
import SpytailCore
@testable import SpytailIO

/// The positions kept for files without a descriptor (parked, retired, deleted live): no files.
struct KeptPositionsTests {
    func checkpoint(_ path: String, inode: UInt64, offset: Int64 = 10, content: UInt64 = 7) -> Checkpoint {
        Checkpoint(path: path, identity: FileIdentity(device: 1, inode: inode), fingerprint: Fingerprint(value: content),
                   offset: offset, tailHash: 0)
    }

    @Test func parkedPositionsAreCheckpointedAndUnparkedByPath() {
        var kept = KeptPositions()
        kept.park(checkpoint("/l/b.log", inode: 2), at: "/l/b.log")
        kept.park(checkpoint("/l/a.log", inode: 1), at: "/l/a.log")
        #expect(kept.checkpoints.count == 2)
        let unparked = [kept.unpark("/l/b.log"), kept.unpark("/l/b.log")].map { $0.map(\.identity.inode) }
        #expect(unparked == [[2], []])
        kept.park(checkpoint("/l/c.log", inode: 3), at: "/l/c.log")
        let all = kept.unparkAll()
        #expect(all.map(\.path) == ["/l/a.log", "/l/c.log"])  // in path order, for resuming
        #expect(kept.parked.isEmpty && kept.checkpoints.isEmpty)
    }

    /// Disabled while a rotated copy is drained: the copy and the live file are both parked under the live path
    /// (one slot per path kept whichever was closed last, and the other's unread lines were lost on enabling).
    @Test func everyFileParkedUnderAPathIsKeptAndAFilesNewerPositionReplacesItsOlder() {
        var kept = KeptPositions()
        kept.park(checkpoint("/l/b.log", inode: 1, offset: 1713, content: 7), at: "/l/b.log")
        kept.park(checkpoint("/l/b.log", inode: 2, offset: 1387, content: 8), at: "/l/b.log")
        kept.park(checkpoint("/l/b.log", inode: 2, offset: 1608, content: 8), at: "/l/b.log")
        #expect(kept.checkpoints.map(\.offset).sorted() == [1608, 1713])
        let all = kept.unparkAll()
        #expect(all.map(\.path) == ["/l/b.log"] && all[0].checkpoints.map(\.identity.inode) == [1, 2])
    }

    @Test func retiredFilesAreMarkedDrainedAndTheOldestIsForgottenPastTheLimit() {
        var kept = KeptPositions()
        let first = kept.retire(checkpoint("/l/a.log", inode: 1), at: "/old/a.log.1", watch: "/old", limit: 2)
        let second = kept.retire(checkpoint("/l/a.log", inode: 2), at: "/l/a.log.1", watch: nil, limit: 2)
        #expect(first == nil && second == nil)
        let forgotten = kept.retire(checkpoint("/l/a.log", inode: 3), at: "/l/a.log.2", watch: nil, limit: 2)
        #expect(forgotten?.checkpoint.identity.inode == 1)
        #expect(forgotten?.watch == "/old")  // the caller releases its folder
        #expect(Set(kept.retired.keys.map(\.inode)) == [2, 3])
        #expect(kept.checkpoints.allSatisfy { $0.drained })
        let identity = FileIdentity(device: 1, inode: 2)
        let again = [kept.forgetRetired(identity), kept.forgetRetired(identity)].map { $0?.currentPath }
        #expect(again == ["/l/a.log.1", nil])
    }

    @Test func retiredContentIsKnownUnderItsLivePathOnly() {
        var kept = KeptPositions()
        _ = kept.retire(checkpoint("/l/a.log", inode: 1, content: 42), at: "/l/a.log.1", watch: nil, limit: 8)
        #expect(kept.retiredHolds(Fingerprint(value: 42), under: "/l/a.log"))
        #expect(!kept.retiredHolds(Fingerprint(value: 42), under: "/l/b.log"))
        #expect(!kept.retiredHolds(Fingerprint(value: 43), under: "/l/a.log"))
    }

    @Test func aDeletedLiveFileIsKeptDrainedUntilAFileIsFollowedThereAgain() {
        var kept = KeptPositions()
        kept.noteDeleted(checkpoint("/l/a.log", inode: 1, offset: 500), limit: 8)
        #expect(kept.checkpoints.map(\.offset) == [500])
        #expect(kept.checkpoints.allSatisfy { $0.drained })
        kept.noteDeleted(checkpoint("/l/a.log", inode: 2, offset: 900), limit: 8)  // deleted again: the newest speaks
        #expect(kept.checkpoints.map(\.offset) == [900])
        kept.followed("/l/a.log")
        #expect(kept.checkpoints.isEmpty)
    }

    @Test func deletedPositionsAreBoundedOldestFirst() {
        var kept = KeptPositions()
        for i in 1...4 { kept.noteDeleted(checkpoint("/l/\(i).log", inode: UInt64(i)), limit: 3) }
        #expect(Set(kept.checkpoints.map(\.path)) == ["/l/2.log", "/l/3.log", "/l/4.log"])
    }

    @Test func aReloadKeepsOnlyThePathsItStillMatches() {
        var kept = KeptPositions()
        kept.park(checkpoint("/l/a.log", inode: 1), at: "/l/a.log")
        kept.park(checkpoint("/l/b.log", inode: 2), at: "/l/b.log")
        kept.noteDeleted(checkpoint("/l/c.log", inode: 3), limit: 8)
        kept.noteDeleted(checkpoint("/l/d.log", inode: 4), limit: 8)
        _ = kept.retire(checkpoint("/l/e.log", inode: 5), at: "/l/e.log.1", watch: nil, limit: 8)
        kept.keep(where: { $0 == "/l/a.log" || $0 == "/l/c.log" })
        // Retired files are kept by identity, whatever matches now: they may still grow.
        #expect(Set(kept.checkpoints.map(\.path)) == ["/l/a.log", "/l/c.log", "/l/e.log"])
    }
}
