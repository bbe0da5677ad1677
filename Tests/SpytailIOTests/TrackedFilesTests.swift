import Glibc
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// The table of tracked files: each entry's state one case, each state change one call. Kept positions without
/// files; open entries over real files in a temporary folder.
struct TrackedFilesTests {
    func checkpoint(_ path: String, inode: UInt64, offset: Int64 = 10, content: UInt64 = 7) -> Checkpoint {
        Checkpoint(path: path, identity: FileIdentity(device: 1, inode: inode), fingerprint: Fingerprint(value: content),
                   offset: offset, tailHash: 0)
    }

    @Test func parkedPositionsAreCheckpointedAndUnparkedByPath() {
        var kept = TrackedFiles()
        kept.park(checkpoint("/l/b.log", inode: 2))
        kept.park(checkpoint("/l/a.log", inode: 1))
        #expect(kept.checkpoints.count == 2)
        let unparked = [kept.unpark("/l/b.log"), kept.unpark("/l/b.log")].map { $0.map(\.identity.inode) }
        #expect(unparked == [[2], []])
        kept.park(checkpoint("/l/c.log", inode: 3))
        let all = kept.unparkAll()
        #expect(all.map(\.path) == ["/l/a.log", "/l/c.log"])  // in path order, for resuming
        #expect(kept.parkedPaths.isEmpty && kept.checkpoints.isEmpty)
    }

    /// Disabled while a rotated copy is drained: the copy and the live file are both parked under the live path
    /// (one slot per path kept whichever was closed last, and the other's unread lines were lost on enabling).
    @Test func everyFileParkedUnderAPathIsKeptAndAFilesNewerPositionReplacesItsOlder() {
        var kept = TrackedFiles()
        kept.park(checkpoint("/l/b.log", inode: 1, offset: 1713, content: 7))
        kept.park(checkpoint("/l/b.log", inode: 2, offset: 1387, content: 8))
        kept.park(checkpoint("/l/b.log", inode: 2, offset: 1608, content: 8))
        #expect(kept.checkpoints.map(\.offset).sorted() == [1608, 1713])
        let all = kept.unparkAll()
        #expect(all.map(\.path) == ["/l/b.log"] && all[0].checkpoints.map(\.identity.inode) == [1, 2])
    }

    @Test func retiredFilesAreMarkedDrainedAndTheOldestIsForgottenPastTheLimit() {
        var kept = TrackedFiles()
        let first = kept.retire(checkpoint("/l/a.log", inode: 1), at: "/old/a.log.1", watch: "/old", limit: 2)
        let second = kept.retire(checkpoint("/l/a.log", inode: 2), at: "/l/a.log.1", watch: nil, limit: 2)
        #expect(first == nil && second == nil)
        let forgotten = kept.retire(checkpoint("/l/a.log", inode: 3), at: "/l/a.log.2", watch: nil, limit: 2)
        #expect(forgotten?.checkpoint.identity.inode == 1)
        #expect(forgotten?.watch == "/old")  // the caller releases its folder
        #expect(Set(kept.retiredFiles.map(\.checkpoint.identity.inode)) == [2, 3])
        #expect(kept.retiredFiles.map(\.order) == kept.retiredFiles.map(\.order).sorted())
        #expect(kept.checkpoints.allSatisfy { $0.drained })
        let identity = FileIdentity(device: 1, inode: 2)
        let again = [kept.forgetRetired(identity), kept.forgetRetired(identity)].map { $0?.currentPath }
        #expect(again == ["/l/a.log.1", nil])
    }

    @Test func retiredContentIsKnownUnderItsLivePathOnly() {
        var kept = TrackedFiles()
        _ = kept.retire(checkpoint("/l/a.log", inode: 1, content: 42), at: "/l/a.log.1", watch: nil, limit: 8)
        #expect(kept.retired(holding: Fingerprint(value: 42), under: "/l/a.log") != nil)
        #expect(kept.retired(holding: Fingerprint(value: 42), under: "/l/b.log") == nil)
        #expect(kept.retired(holding: Fingerprint(value: 43), under: "/l/a.log") == nil)
    }

    @Test func aDeletedLiveFileIsKeptDrainedUntilAFileIsFollowedThereAgain() {
        var kept = TrackedFiles()
        kept.noteGone(checkpoint("/l/a.log", inode: 1, offset: 500), limit: 8)
        #expect(kept.checkpoints.map(\.offset) == [500])
        #expect(kept.checkpoints.allSatisfy { $0.drained })
        kept.noteGone(checkpoint("/l/a.log", inode: 2, offset: 900), limit: 8)  // deleted again: the newest speaks
        #expect(kept.checkpoints.map(\.offset) == [900])
        kept.dropGone(at: "/l/a.log")
        #expect(kept.checkpoints.isEmpty)
    }

    @Test func deletedPositionsAreBoundedOldestFirst() {
        var kept = TrackedFiles()
        for i in 1...4 { kept.noteGone(checkpoint("/l/\(i).log", inode: UInt64(i)), limit: 3) }
        #expect(Set(kept.checkpoints.map(\.path)) == ["/l/2.log", "/l/3.log", "/l/4.log"])
    }

    @Test func aReloadKeepsOnlyThePathsItStillMatches() {
        var kept = TrackedFiles()
        kept.park(checkpoint("/l/a.log", inode: 1))
        kept.park(checkpoint("/l/b.log", inode: 2))
        kept.noteGone(checkpoint("/l/c.log", inode: 3), limit: 8)
        kept.noteGone(checkpoint("/l/d.log", inode: 4), limit: 8)
        _ = kept.retire(checkpoint("/l/e.log", inode: 5), at: "/l/e.log.1", watch: nil, limit: 8)
        kept.keep(where: { $0 == "/l/a.log" || $0 == "/l/c.log" })
        // Retired files are kept by identity, whatever matches now: they may still grow.
        #expect(Set(kept.checkpoints.map(\.path)) == ["/l/a.log", "/l/c.log", "/l/e.log"])
    }

    // MARK: open entries

    /// A file opened at `name` in `dir`, its content known (so that it has a checkpoint).
    func opened(_ dir: TemporaryDirectory, _ name: String, _ text: String = "one\ntwo\n") throws -> TailedFile {
        let path = dir.write(name, text)
        return try TailedFile(path: path, followPath: path, offset: Int64(text.utf8.count), fingerprint: Fingerprinter.ofFile(path),
                              parser: LineParser(name: "parse", format: .text, timestampFormat: .iso8601), now: .zero)
    }

    func states(_ table: TrackedFiles) -> [TrackedFiles.State] { table.all.map(\.state).sorted { "\($0)" < "\($1)" } }

    @Test func aFileParkedUnderTheCapLeavesItsPathAndKeepsItsPosition() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var table = TrackedFiles()
        let file = try opened(dir, "a.log")
        _ = table.follow(file, at: file.followPath)
        table.alias(dir.path + "/a-link.log", to: file.identity)
        #expect(table.openCount == 1 && table.file(followedAt: file.followPath) === file && states(table) == [.following])
        table.park(file)
        file.close()
        #expect(table.openCount == 0 && table[file.identity] == nil && table.identity(followedAt: file.followPath) == nil)
        #expect(states(table) == [.parked] && file.lifecycle.state == .parked)
        #expect(table.parked(at: file.followPath)?.map(\.offset) == [8])
        #expect(table.checkpoints.map(\.offset) == [8] && table.keptCheckpoints.map(\.offset) == [8])
        #expect(table.unpark(file.followPath).map(\.identity) == [file.identity] && table.all.isEmpty)
    }

    /// A parked file may stay parked without a descriptor spent on a look only when this process parked it from its
    /// descriptor, read to its end, and it is unchanged since: same inode, size and modification time. A position from
    /// the checkpoint file never passes (an inode reused for a new file as long would: simulator seed 40929), nor does
    /// the file rewritten in place to the same length.
    @Test func onlyAFileParkedFromItsDescriptorAndUnchangedSincePassesForUnchanged() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var table = TrackedFiles()
        let file = try opened(dir, "a.log")  // read to its end, 8 bytes
        let path = file.followPath
        _ = table.follow(file, at: path)
        table.park(file)
        file.close()
        let now = try #require(FileStamp(path))
        #expect(table.isParkedUnchanged(at: path, now: now))
        var loaded = TrackedFiles()  // the same position, as the checkpoint file gives it at a start
        loaded.park(try #require(table.parked(at: path)?.first))
        #expect(!loaded.isParkedUnchanged(at: path, now: now))
        // Rewritten in place to the same length, a second later (a coarse clock could give the same time otherwise).
        _ = dir.write("a.log", "uno\ndos\n")
        var later = [timespec(tv_sec: now.modifiedSeconds + 1, tv_nsec: 0), timespec(tv_sec: now.modifiedSeconds + 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &later, 0) == 0)
        let rewritten = try #require(FileStamp(path))
        #expect(rewritten.identity == now.identity && rewritten.size == now.size)
        #expect(!table.isParkedUnchanged(at: path, now: rewritten))
    }

    @Test func aRotatedFileDrainsThenRetiresAsOneEntry() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var table = TrackedFiles()
        let file = try opened(dir, "a.log")
        _ = table.follow(file, at: file.followPath)
        _ = file.lifecycle.look(FileObservation(size: 8, links: 1, pathIdentity: nil), identity: file.identity, offset: file.offset)
        table.unfollow(file.followPath)
        #expect(states(table) == [.draining] && table.followedPaths.isEmpty)
        let checkpoint = try #require(file.checkpoint())
        table.remove(file)
        file.close()
        _ = table.retire(checkpoint, at: file.currentPath, watch: nil, limit: 8)
        #expect(states(table) == [.retired] && table.openCount == 0)
        #expect(table.retired(file.identity)?.checkpoint.drained == true)
    }

    /// A retired file's inode followed again under a live name (renamed back): one entry, the open one; the
    /// retired one is handed back for its folder hold (before, both were kept, and both read its growth).
    @Test func followingARetiredFileReplacesItsEntry() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var table = TrackedFiles()
        let file = try opened(dir, "a.log")
        let checkpoint = try #require(file.checkpoint())
        _ = table.retire(checkpoint, at: file.followPath, watch: "/elsewhere", limit: 8)
        let replaced = table.follow(file, at: file.followPath)
        #expect(replaced?.watch == "/elsewhere")
        #expect(states(table) == [.following] && table.retired(file.identity) == nil && table.retiredFiles.isEmpty)
        #expect(table.openCount == 1)
    }

    @Test func disablingParksEveryOpenFileAndLetsGoOfEveryName() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var table = TrackedFiles()
        let a = try opened(dir, "a.log"), b = try opened(dir, "b.log", "three\n")
        _ = table.follow(a, at: a.followPath)
        _ = table.follow(b, at: b.followPath)
        table.alias(dir.path + "/second-name.log", to: a.identity)
        table.noteGone(checkpoint(dir.path + "/c.log", inode: 99), limit: 8)
        let closed = table.parkEveryOpenFile()
        for file in closed { file.close() }
        #expect(Set(closed.map(\.identity)) == [a.identity, b.identity])
        #expect(table.openCount == 0 && table.followedPaths.isEmpty)
        #expect(states(table) == [.gone, .parked, .parked])
        #expect(table.unparkAll().map(\.path) == [a.followPath, b.followPath])
    }
}
