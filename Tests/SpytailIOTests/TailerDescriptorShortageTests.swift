import Foundation
import Testing
import SpytailCore
@testable import SpytailIO
import SpytailTestSupport

/// Opens that fail for want of a descriptor (EMFILE) where the descriptor budget was not asked, or said yes and
/// another thread took the descriptor first: the path waits for one as if the budget had said no, and is looked
/// at again every second, since no file event may ever come for it again. Driven by scripted file events and a
/// manual clock; `Tailer.openFailure` plays the kernel's refusal.
struct TailerDescriptorShortageTests {
    @Test func aNewFileWhoseOpenFailsForWantOfADescriptorIsReadOnceOneIsFree() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/a.log", "a\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "cp.json",
             "outputs": [{"type": "file", "path": "out.jsonl", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.jsonl")) }
        let spy = RecordingFileEvents(), clock = ManualClock(), reporter = RecordingEventReporter(), descriptorsOut = Locked(false)
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: RecordingCheckpointStore(), events: reporter, clock: clock,
                                fileEvents: spy.factory)
        tailer.openFailure = { descriptorsOut.withLock { $0 } ? Errno(EMFILE) : nil }  // the budget says yes: only the open fails
        let finished = TailerTests.start(tailer)
        #expect(Waiting.until(10, every: 0.01) { exported() == ["a"] && spy.startCount == 1 })

        descriptorsOut.withLock { $0 = true }
        dir.write("logs/b.log", "b\n")
        spy.deliver(.changed(directory: dir.file("logs"), name: "b.log", kind: .entries))
        // No event comes for `b.log` again: only the loop's own look a second later reads it.
        expectReadOnceADescriptorIsFree(["a", "b"], exported: exported, reporter: reporter, descriptorsOut: descriptorsOut, clock: clock,
                                        tailer: tailer, finished: finished)
    }

    /// A rotated file retired after rotateWait grows while no descriptor is free: it stays retired at its position
    /// (it was let go before draining it, and the failed open left nothing to read it again from).
    @Test func aRetiredFileThatGrowsWhileNoDescriptorIsFreeIsDrainedFromItsPositionOnceOneIs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for folder in ["logs", "elsewhere"] { try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true) }
        let log = dir.write("logs/app.log", "a\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "checkpoints": "cp.json", "tail": {"rotateWaitMs": 1000},
             "outputs": [{"type": "file", "path": "out.jsonl", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.jsonl")) }
        let spy = RecordingFileEvents(), clock = ManualClock(), reporter = RecordingEventReporter(), descriptorsOut = Locked(false)
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: RecordingCheckpointStore(), events: reporter, clock: clock,
                                fileEvents: spy.factory)
        tailer.descriptorsFree = { count in !descriptorsOut.withLock({ $0 }) && Syscall.canOpenDescriptors(count) }
        tailer.openFailure = { descriptorsOut.withLock { $0 } ? Errno(EMFILE) : nil }
        let finished = TailerTests.start(tailer)
        let logs = dir.file("logs"), elsewhere = dir.file("elsewhere")
        #expect(Waiting.until(10, every: 0.01) { exported() == ["a"] && spy.startCount == 1 })

        // Rotated into another folder, quiet for rotateWait: retired, its position kept.
        try FileManager.default.moveItem(atPath: log, toPath: dir.file("elsewhere/app.log.1"))
        dir.write("logs/app.log", "")
        spy.deliver(.changed(directory: logs, name: "app.log", kind: .entries))
        #expect(Waiting.until(10, every: 0.01) { spy.currentlyWatched.contains(elsewhere) })
        #expect(Waiting.until(10, every: 0.01) {
            clock.advance(by: .milliseconds(500))
            return reporter.events.contains { if case .closed(_, let reason) = $0 { reason.contains("read again if it grows") } else { false } }
        })

        // It grows while the process has no descriptor to spare.
        descriptorsOut.withLock { $0 = true }
        try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("elsewhere/app.log.1"))).appendAndClose("b\n")
        spy.deliver(.changed(directory: elsewhere, name: "app.log.1", kind: .modified))
        expectReadOnceADescriptorIsFree(["a", "b"], exported: exported, reporter: reporter, descriptorsOut: descriptorsOut, clock: clock,
                                        tailer: tailer, finished: finished)
    }

    /// Once the open's refusal was said, descriptors are free again: the loop's look a second later (the clock moves,
    /// no file event comes) exports `expected`; then the run stops.
    private func expectReadOnceADescriptorIsFree(_ expected: [String], exported: () -> [String], reporter: RecordingEventReporter,
                                                 descriptorsOut: Locked<Bool>, clock: ManualClock, tailer: Tailer<ManualClock>,
                                                 finished: TailerTests.Box<Bool>) {
        #expect(Waiting.until(10, every: 0.01) { reporter.events.contains { if case .problem(.unreadable) = $0 { true } else { false } } })
        descriptorsOut.withLock { $0 = false }
        #expect(Waiting.until(10, every: 0.05) {
            clock.advance(by: .milliseconds(500))
            return exported() == expected
        }, "\(exported())")
        tailer.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
    }
}

/// A parked file (closed to stay under `tail.maxOpenFiles`, its position kept) is looked at without a descriptor:
/// the same inode at the size it was parked at means nothing new. Not when that size is 0: copytruncate empties the
/// file it copied, and a parked content always had a first line, which is now in the copy. Nor when the position on
/// that inode is a drained one: the file there now is another.
struct TailerParkedFileTests {
    @Test func aParkedFileEmptiedByCopytruncateIsReadFromItsCopy() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let logs = dir.file("logs")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        dir.write("logs/a.log", "")
        let others = (1...7).map { "f\($0).log" }
        for name in others { dir.write("logs/\(name)", "\(name)\n") }
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "tail": {"maxOpenFiles": 8},
             "outputs": [{"type": "file", "path": "out.txt", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.txt")) }
        let clock = ManualClock()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: nil, events: RecordingEventReporter(), clock: clock,
                                fileEvents: RecordingFileEvents().factory)
        tailer.open()
        try tailer.begin()
        // The seven others grow later; `a.log`, followed while empty, stays the quietest.
        clock.advance(by: .seconds(10))
        for name in others {
            try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/\(name)"))).appendAndClose("more\n")
            _ = try tailer.turn([.watch(.changed(directory: logs, name: name, kind: .modified))])
        }
        // A line in `a.log` the run was not told of yet; then a ninth file: `a.log` is parked to make room, at 0.
        try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/a.log"))).appendAndClose("kept\n")
        dir.write("logs/g.log", "g\n")
        _ = try tailer.turn([.watch(.changed(directory: logs, name: "g.log", kind: .modified))])
        #expect(tailer.tracked.parked(at: dir.file("logs/a.log")) != nil)
        #expect(!exported().contains("kept"))

        // copytruncate: the copy holds the line, the file is empty again (the same inode).
        try FileManager.default.copyItem(atPath: dir.file("logs/a.log"), toPath: dir.file("logs/a.log.1"))
        dir.write("logs/a.log", "")
        _ = try tailer.turn([.watch(.changed(directory: logs, name: "a.log.1", kind: .entries)),
                             .watch(.changed(directory: logs, name: "a.log", kind: .modified))])
        #expect(exported().filter { $0 == "kept" }.count == 1, "\(exported())")
        tailer.abandon()
    }

    /// A drained position (a rotated copy read to its end, then retired) parked at a start with no descriptor free,
    /// and its inode found again at the live path: not the parked live file with nothing new, but another file —
    /// here the copy moved back and written on; in the simulator (seed 330), a new live file the file system gave
    /// the deleted copy's inode to. It is read once a descriptor is free, where it had stayed parked for good.
    @Test func aLiveFileOnTheInodeOfADrainedParkedPositionIsRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let logs = dir.file("logs"), live = dir.file("logs/a.log"), copy = dir.file("logs/a.log.1")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        dir.write("logs/a.log", "a\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/*.log"]}], "tail": {"rotateWaitMs": 1000},
             "outputs": [{"type": "file", "path": "out.txt", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.txt")) }
        let store = RecordingCheckpointStore(), clock = ManualClock(), descriptorsOut = Locked(false)
        func run() throws -> Tailer<ManualClock> {
            let tailer = try Tailer(configFile: ConfigFile(path: config), store: store, events: RecordingEventReporter(), clock: clock,
                                    fileEvents: RecordingFileEvents().factory)
            tailer.descriptorsFree = { count in !descriptorsOut.withLock({ $0 }) && Syscall.canOpenDescriptors(count) }
            tailer.open()
            try tailer.begin()
            return tailer
        }
        let first = try run()
        // Rotated: the copy is drained, and retired once quiet for rotateWait; the new live file stays empty.
        try FileManager.default.moveItem(atPath: live, toPath: copy)
        dir.write("logs/a.log", "")
        _ = try first.turn([.watch(.changed(directory: logs, name: "a.log.1", kind: .entries)),
                            .watch(.changed(directory: logs, name: "a.log", kind: .entries))])
        clock.advance(by: .seconds(2))
        _ = try first.turn([])
        #expect(first.tracked.hasRetiredFiles)
        #expect(try first.turn([.signal(SIGTERM)]) == .stop)
        try first.shutDown()
        let saved = try #require(store.saves.last?.saved)
        #expect(saved.checkpoints.contains { $0.drained })
        store.loadResult = .success(saved)

        // The copy goes back to the live name and is written on; the next start finds no descriptor free.
        try FileManager.default.removeItem(atPath: live)
        try FileManager.default.moveItem(atPath: copy, toPath: live)
        try FileHandle(forWritingTo: URL(fileURLWithPath: live)).appendAndClose("b\n")
        descriptorsOut.withLock { $0 = true }
        let second = try run()
        #expect(second.tracked.parked(at: live)?.contains { $0.drained } == true)
        descriptorsOut.withLock { $0 = false }
        clock.advance(by: .seconds(2))
        _ = try second.turn([])
        #expect(exported() == ["a", "b"], "\(exported())")
        second.abandon()
    }
}

/// A `startAt: end` live file the start could not open for want of a descriptor (the budget said no, or the open or a
/// copy's look failed): where it ended at the start is kept (a `stat` needs no descriptor), and once one is free it is
/// followed from there — not from its beginning, which sent the history `startAt: end` skips — and the copies skipped
/// at the start stay skipped when they are renamed later.
struct TailerStartAtEndShortageTests {
    struct Run {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let descriptorsOut = Locked(false), opensFail = Locked(false)
        var logs: String { dir.file("logs") }

        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
            for (name, text) in files { dir.write("logs/\(name)", text) }
        }

        func start(store: RecordingCheckpointStore? = nil) throws -> Tailer<ManualClock> {
            let config = dir.write("c.json", #"""
                {"sources": [{"name": "app", "include": ["logs/*.log"], "startAt": "end"}],
                 "outputs": [{"type": "file", "path": "out.txt", "format": "text"}]}
                """#)
            let tailer = try Tailer(configFile: ConfigFile(path: config), store: store, events: RecordingEventReporter(), clock: clock,
                                    fileEvents: RecordingFileEvents().factory)
            let (out, fail) = (descriptorsOut, opensFail)
            tailer.descriptorsFree = { count in !out.withLock({ $0 }) && Syscall.canOpenDescriptors(count) }
            tailer.openFailure = { fail.withLock { $0 } ? Errno(EMFILE) : nil }
            tailer.open()
            try tailer.begin()
            return tailer
        }

        func append(_ name: String, _ text: String) throws {
            try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("logs/\(name)"))).appendAndClose(text)
        }

        /// Descriptors are free again; the loop's retry a second later (no file event) does the rest.
        func free(_ tailer: Tailer<ManualClock>) throws {
            descriptorsOut.withLock { $0 = false }
            opensFail.withLock { $0 = false }
            clock.advance(by: .seconds(2))
            _ = try tailer.turn([])
        }

        /// logrotate's `create` over `a.log` and `a.log.1`, the new `a.log` holding `text`; its events told.
        func rotate(_ tailer: Tailer<ManualClock>, thenWrite text: String) throws {
            try FileManager.default.moveItem(atPath: dir.file("logs/a.log.1"), toPath: dir.file("logs/a.log.2"))
            try FileManager.default.moveItem(atPath: dir.file("logs/a.log"), toPath: dir.file("logs/a.log.1"))
            dir.write("logs/a.log", text)
            _ = try tailer.turn(["a.log.2", "a.log.1", "a.log"].map { .watch(.changed(directory: logs, name: $0, kind: .entries)) })
        }

        var exported: [String] { TailerTests.lastWords(in: dir.file("out.txt")) }
    }

    @Test func aFileLeftAtTheStartForWantOfADescriptorIsFollowedFromWhereItEndedThen() throws {
        let run = try Run(["a.log": "old1\nold2\n"])
        defer { run.dir.remove() }
        run.descriptorsOut.withLock { $0 = true }
        let tailer = try run.start()
        try run.append("a.log", "new1\n")
        _ = try tailer.turn([.watch(.changed(directory: run.logs, name: "a.log", kind: .modified))])
        #expect(run.exported == [])
        try run.free(tailer)
        #expect(run.exported == ["new1"])
        tailer.abandon()
    }

    /// Stopped (SIGTERM) before a descriptor was free: where the file ended at the first start is saved with the
    /// checkpoints, and the restart follows it from there: what was written while the first run waited, and while it
    /// was down, is read; its history is not. (Kept in memory only, the restart took the file for new and followed it
    /// from where it ended then.)
    @Test func aFileLeftAtTheStartAndStoppedBeforeADescriptorWasFreeIsFollowedFromTheFirstStartsEnd() throws {
        let run = try Run(["a.log": "old1\nold2\n"])
        defer { run.dir.remove() }
        run.descriptorsOut.withLock { $0 = true }
        let store = RecordingCheckpointStore()
        let first = try run.start(store: store)
        try run.append("a.log", "new1\n")
        _ = try first.turn([.watch(.changed(directory: run.logs, name: "a.log", kind: .modified))])
        #expect(try first.turn([.signal(SIGTERM)]) == .stop)
        try first.shutDown()
        #expect(run.exported == [])
        let saved = try #require(store.saves.last).saved
        #expect(saved.endsAtStart[run.dir.file("logs/a.log")]?.size == 10, "where it ended at the first start")
        try run.append("a.log", "new2\n")

        run.descriptorsOut.withLock { $0 = false }
        let restarted = RecordingCheckpointStore()
        restarted.loadResult = .success(saved)
        let second = try run.start(store: restarted)
        #expect(run.exported == ["new1", "new2"])
        #expect(try second.turn([.signal(SIGTERM)]) == .stop)
        try second.shutDown()
        #expect(restarted.saves.last?.saved.endsAtStart.isEmpty == true, "followed now: its checkpoint says where it stands")
    }

    /// Rotated before a descriptor was free: the copy holding the start's file is read on from where it ended then,
    /// and the new live file whole.
    @Test func aFileLeftAtTheStartAndRotatedMeanwhileIsReadOnFromItsCopy() throws {
        let run = try Run(["a.log": "old1\nold2\n", "a.log.1": "older\n"])
        defer { run.dir.remove() }
        run.descriptorsOut.withLock { $0 = true }
        let tailer = try run.start()
        try run.append("a.log", "new1\n")
        try run.rotate(tailer, thenWrite: "new2\n")
        #expect(run.exported == [])
        try run.free(tailer)
        #expect(run.exported == ["new1", "new2"])
        tailer.abandon()
    }

    /// Rotated twice before a descriptor was free: the copy holding the start's file is read on from where it ended
    /// then, the copy made since read whole (all of it was written after the start), then the new live file.
    @Test func aFileLeftAtTheStartAndRotatedTwiceMeanwhileIsReadOnThroughEveryNewerCopy() throws {
        let run = try Run(["a.log": "old1\nold2\n", "a.log.1": "older\n"])
        defer { run.dir.remove() }
        run.descriptorsOut.withLock { $0 = true }
        let tailer = try run.start()
        try run.append("a.log", "new1\n")
        try run.rotate(tailer, thenWrite: "new2\n")
        try FileManager.default.moveItem(atPath: run.dir.file("logs/a.log.2"), toPath: run.dir.file("logs/a.log.3"))
        try run.rotate(tailer, thenWrite: "new3\n")
        #expect(run.exported == [])
        try run.free(tailer)
        #expect(run.exported == ["new1", "new2", "new3"])
        tailer.abandon()
    }

    /// The budget said yes, then the opens failed (another thread took the descriptors): the skipped copy could not be
    /// looked at, nor the live file opened. Both wait; the copy, renamed meanwhile, is still history.
    @Test func aStartWhoseOpensFailKeepsItsEndAndItsSkippedCopies() throws {
        let run = try Run(["a.log": "old1\n", "a.log.1": "older\n"])
        defer { run.dir.remove() }
        run.opensFail.withLock { $0 = true }
        let tailer = try run.start()
        try run.append("a.log", "new1\n")
        try FileManager.default.moveItem(atPath: run.dir.file("logs/a.log.1"), toPath: run.dir.file("logs/a.log.2"))
        _ = try tailer.turn([.watch(.changed(directory: run.logs, name: "a.log.2", kind: .entries)),
                             .watch(.changed(directory: run.logs, name: "a.log", kind: .modified))])
        #expect(run.exported == [])
        try run.free(tailer)
        _ = try tailer.turn([.watch(.changed(directory: run.logs, name: "a.log.2", kind: .entries))])
        #expect(run.exported == ["new1"])
        tailer.abandon()
    }

    /// The copy the start could not look at, rotated on later (its arrival, then an overflow's look at every chain):
    /// still history, not content never seen. It was remembered as nothing, and read.
    @Test func aCopyTheStartCouldNotLookAtStaysSkippedWhenItIsRotatedOn() throws {
        let run = try Run(["a.log": "old1\n", "a.log.1": "older\n"])
        defer { run.dir.remove() }
        run.opensFail.withLock { $0 = true }
        let tailer = try run.start()
        try run.append("a.log", "new1\n")
        try run.free(tailer)
        try run.rotate(tailer, thenWrite: "new2\n")
        run.clock.advance(by: .seconds(5))
        _ = try tailer.turn([.watch(.overflow)])
        #expect(run.exported == ["new1", "new2"])
        tailer.abandon()
    }
}

/// A first start whose history read stopped part-way for want of a descriptor, then stopped before one was free:
/// what it read is saved with the checkpoints, and the next start reads on from there, not again.
struct TailerHistoryCutShortTests {
    /// Forwards to a `RecordingEventReporter`, and says when the oldest copy's lines were handed on.
    final class Reporter: EventReporter, @unchecked Sendable {
        let recorded = RecordingEventReporter()
        let onFollowing: (String) -> Void
        init(onFollowing: @escaping (String) -> Void) { self.onFollowing = onFollowing }
        func report(_ event: SpytailEvent) {
            recorded.report(event)
            if case .following(let path, _) = event { onFollowing(path) }
        }
    }

    @Test func aHistoryReadPartWayAndStoppedIsReadOnAtTheNextStartNotAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        dir.write("logs/app.log.2", "one\n")
        dir.write("logs/app.log.1", "two\n")
        dir.write("logs/app.log", "three\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/app.log"]}], "checkpoints": "cp.json",
             "outputs": [{"type": "file", "path": "out.txt", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.txt")) }
        let descriptorsOut = Locked(false)
        // The oldest copy is read; from then on every open fails (EMFILE) though the gauge says yes.
        let reporter = Reporter { path in if path.hasSuffix("app.log.2") { descriptorsOut.withLock { $0 = true } } }
        let store = RecordingCheckpointStore(), clock = ManualClock()
        let first = try Tailer(configFile: ConfigFile(path: config), store: store, events: reporter, clock: clock,
                               fileEvents: RecordingFileEvents().factory)
        first.openFailure = { descriptorsOut.withLock { $0 } ? Errno(EMFILE) : nil }
        let firstFinished = TailerTests.start(first)
        #expect(Waiting.until(10, every: 0.01) { exported() == ["one"] && !store.saves.isEmpty })
        first.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { firstFinished.value })
        #expect(exported() == ["one"], "nothing past the copy no descriptor was free for")

        // Restarted with descriptors free: the copy read is not read again; the rest is, oldest first.
        let restarted = RecordingCheckpointStore()
        restarted.loadResult = .success(try #require(store.saves.last).saved)
        let second = try Tailer(configFile: ConfigFile(path: config), store: restarted, events: RecordingEventReporter(),
                                clock: ManualClock(), fileEvents: RecordingFileEvents().factory)
        let secondFinished = TailerTests.start(second)
        #expect(Waiting.until(10, every: 0.01) { exported().count >= 3 })
        second.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { secondFinished.value })
        #expect(exported() == ["one", "two", "three"])
    }
}

/// A retired rotated copy (read to its end, closed) is looked at without a descriptor while it stays as it was
/// retired: the same inode, size and modification time. The same inode and size alone do not say so: the file system
/// may give a deleted copy's inode to a new file as long (simulator seed 40929 found that for a parked position).
struct TailerRetiredFileTests {
    /// `app.log.1`, retired after rotateWait, is rewritten in place to as many bytes of other lines: they are read as
    /// the new content they are (taken for the retired file unchanged, they were never read).
    @Test func aRetiredCopyAsLongAsItWasButChangedIsLookedAt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("logs"), withIntermediateDirectories: true)
        let log = dir.write("logs/app.log", "one\ntwo\n")
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "app", "include": ["logs/app.log"]}], "tail": {"rotateWaitMs": 1000},
             "outputs": [{"type": "file", "path": "out.txt", "format": "text"}]}
            """#)
        func exported() -> [String] { TailerTests.lastWords(in: dir.file("out.txt")) }
        let spy = RecordingFileEvents(), clock = ManualClock(), reporter = RecordingEventReporter()
        let tailer = try Tailer(configFile: ConfigFile(path: config), store: nil, events: reporter, clock: clock, fileEvents: spy.factory)
        let finished = TailerTests.start(tailer)
        let logs = dir.file("logs"), copy = dir.file("logs/app.log.1")
        #expect(Waiting.until(10, every: 0.01) { exported() == ["one", "two"] && spy.startCount == 1 })

        try FileManager.default.moveItem(atPath: log, toPath: copy)
        dir.write("logs/app.log", "")
        spy.deliver(.changed(directory: logs, name: "app.log.1", kind: .entries))
        spy.deliver(.changed(directory: logs, name: "app.log", kind: .entries))
        #expect(Waiting.until(10, every: 0.01) {
            clock.advance(by: .milliseconds(500))
            return reporter.events.contains { if case .closed(_, let reason) = $0 { reason.contains("read again if it grows") } else { false } }
        })

        let before = try #require(FileStamp(copy))
        dir.write("logs/app.log.1", "uno\ndos\n")  // same inode, same length, other lines
        var later = [timespec(tv_sec: before.modifiedSeconds + 2, tv_nsec: 0), timespec(tv_sec: before.modifiedSeconds + 2, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, copy, &later, 0) == 0)
        #expect(FileStamp(copy).map { $0.identity == before.identity && $0.size == before.size } == true)
        spy.deliver(.changed(directory: logs, name: "app.log.1", kind: .modified))
        #expect(Waiting.until(10, every: 0.05) {
            clock.advance(by: .milliseconds(500))
            return exported() == ["one", "two", "uno", "dos"]
        }, "\(exported())")
        tailer.inbox.push(.signal(SIGTERM))
        #expect(Waiting.until(10, every: 0.01) { finished.value })
    }
}
