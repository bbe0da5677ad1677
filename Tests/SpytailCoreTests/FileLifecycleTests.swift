import Testing
@testable import SpytailCore

/// Every transition of a followed file, from scripted observations and times: no files, no threads.
struct FileLifecycleTests {
    static let ours = FileIdentity(device: 1, inode: 10)
    static let newFile = FileIdentity(device: 1, inode: 11)
    static let settings: RunSettings = {
        var s = RunSettings.defaults
        s.rotateWait = .seconds(5)
        s.idleTimeout = .seconds(1)
        return s
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let from: FileLifecycle.State
        let observation: FileObservation
        let offset: Int64
        let action: FileLifecycle.LookAction
        let to: FileLifecycle.State
        var testDescription: String { name }
    }

    static let looks: [Case] = [
        Case(name: "followed, nothing new", from: .following, observation: .init(size: 100, links: 1, pathIdentity: ours), offset: 100,
             action: .nothing, to: .following),
        Case(name: "followed, grew", from: .following, observation: .init(size: 150, links: 1, pathIdentity: ours), offset: 100,
             action: .read, to: .following),
        Case(name: "copytruncate: shorter", from: .following, observation: .init(size: 10, links: 1, pathIdentity: ours), offset: 100,
             action: .recoverTruncation, to: .following),
        Case(name: "refilled past our offset: head changed", from: .following,
             observation: .init(size: 300, links: 1, pathIdentity: ours, headMatches: false), offset: 100,
             action: .recoverTruncation, to: .following),
        Case(name: "rename rotation, new file created", from: .following, observation: .init(size: 100, links: 1, pathIdentity: newFile),
             offset: 100, action: .rotatedAway(followNewFile: true), to: .draining),
        Case(name: "rename rotation, no new file yet", from: .following, observation: .init(size: 100, links: 1, pathIdentity: nil),
             offset: 100, action: .rotatedAway(followNewFile: false), to: .draining),
        Case(name: "deleted, new file at the path", from: .following, observation: .init(size: 100, links: 0, pathIdentity: newFile),
             offset: 100, action: .deleted(followNewFile: true), to: .closed),
        Case(name: "deleted with bytes unread", from: .following, observation: .init(size: 180, links: 0, pathIdentity: nil),
             offset: 100, action: .deleted(followNewFile: false), to: .closed),
        Case(name: "drained, its writer still appends", from: .draining, observation: .init(size: 180, links: 1, pathIdentity: newFile),
             offset: 100, action: .read, to: .draining),
        Case(name: "drained, deleted (a new file at the path is someone else's)", from: .draining,
             observation: .init(size: 100, links: 0, pathIdentity: newFile), offset: 100, action: .deleted(followNewFile: false), to: .closed),
        Case(name: "retired files are not looked at through a descriptor", from: .retired,
             observation: .init(size: 180, links: 1, pathIdentity: nil), offset: 100, action: .nothing, to: .retired),
        Case(name: "parked files neither", from: .parked, observation: .init(size: 180, links: 1, pathIdentity: ours), offset: 100,
             action: .nothing, to: .parked),
    ]

    @Test(arguments: looks)
    func aLookDecides(_ c: Case) {
        var lifecycle = FileLifecycle(c.from, now: .zero)
        let action = lifecycle.look(c.observation, identity: Self.ours, offset: c.offset)
        #expect(action == c.action)
        #expect(lifecycle.state == c.to)
    }

    @Test func aDrainedFileRetiresOnlyOnceItStopsGrowing() {
        var file = FileLifecycle(.following, now: .zero)
        _ = file.look(.init(size: 100, links: 1, pathIdentity: Self.newFile), identity: Self.ours, offset: 100)
        #expect(file.state == .draining)
        #expect(file.nextDeadline(settings: Self.settings, hasPendingEntry: false) == .seconds(5))
        #expect(file.timer(now: .seconds(4), settings: Self.settings, hasPendingEntry: false) == .nothing)
        #expect(file.timer(now: .seconds(5), settings: Self.settings, hasPendingEntry: false) == .checkQuiet)
        // It grew meanwhile (a folder nobody watches): read, and it stays drained for another rotateWait.
        let r1 = file.quietAfterReading(500, at: .seconds(5))
        #expect(!r1)
        #expect(file.state == .draining)
        #expect(file.nextDeadline(settings: Self.settings, hasPendingEntry: false) == .seconds(10))
        #expect(file.timer(now: .seconds(9), settings: Self.settings, hasPendingEntry: false) == .nothing)
        let r2 = file.quietAfterReading(0, at: .seconds(10))
        #expect(r2)
        #expect(file.state == .retired)
        #expect(file.nextDeadline(settings: Self.settings, hasPendingEntry: false) == nil)
    }

    @Test func aPendingEntryIsHandedOutAfterTheIdleTimeout() {
        var file = FileLifecycle(.following, now: .zero)
        file.read(80, at: .milliseconds(300))
        #expect(file.nextDeadline(settings: Self.settings, hasPendingEntry: true) == .milliseconds(1300))
        #expect(file.timer(now: .milliseconds(1299), settings: Self.settings, hasPendingEntry: true) == .nothing)
        #expect(file.timer(now: .milliseconds(1300), settings: Self.settings, hasPendingEntry: true) == .flushPendingEntry)
        #expect(file.timer(now: .seconds(9), settings: Self.settings, hasPendingEntry: false) == .nothing)
        file.read(0, at: .seconds(2))  // an empty read is no activity
        #expect(file.lastGrowth == .milliseconds(300))
        #expect(file.nextDeadline(settings: Self.settings, hasPendingEntry: false) == nil)
    }

    @Test(arguments: [(100, 100, FileLifecycle.Revival.unchanged), (150, 100, .drainAgain), (50, 100, .forget)])
    func aRetiredFileSeenAgain(_ size: Int64, _ offset: Int64, _ revival: FileLifecycle.Revival) {
        #expect(FileLifecycle.revive(size: size, offset: offset) == revival)
    }

    @Test func parkingAndClosing() {
        var file = FileLifecycle(.following, now: .zero)
        file.park()
        #expect(file.state == .parked && !file.isFollowed)
        file.close()
        #expect(file.state == .closed)
    }
}

/// The run's condition: stalls on a full output, retries, resumes; checkpoint saving fails, recovers, freezes.
struct RunConditionTests {
    static let settings = RunSettings.defaults

    @Test func aStallIsSaidOnceRetriedEverySecondAndEndsWithItsLength() {
        var run = RunCondition()
        #expect(run.mayCheckpoint && !run.isStalled)
        #expect(run.nextDeadline(settings: Self.settings) == nil)
        let r3 = run.outputFull(at: .seconds(10))
        #expect(r3)
        #expect(!run.mayCheckpoint && run.isStalled)
        #expect(!run.retryDue(at: .milliseconds(10_999), settings: Self.settings))
        #expect(run.retryDue(at: .seconds(11), settings: Self.settings))
        let r4 = run.outputFull(at: .seconds(11))
        #expect(!r4, "said once")
        #expect(run.nextDeadline(settings: Self.settings) == .seconds(12))
        let r5 = run.outputsWritable(at: .seconds(14))
        #expect(r5 == .init(paused: .seconds(4), said: true), "counted from the stall's start")
        #expect(run.state == .running && run.mayCheckpoint)
        let r6 = run.outputsWritable(at: .seconds(15))
        #expect(r6 == nil)
    }

    @Test func aStallANetworkOutputSaysItselfIsNotSaidByTheRunNorItsEnd() {
        var run = RunCondition()
        let started = run.outputFull(at: .seconds(1), said: false)
        #expect(started && !run.saysStall)
        let again = run.outputFull(at: .seconds(2), said: true)
        #expect(!again && !run.saysStall, "a retry neither restarts the stall nor changes who says it")
        let resumed = run.outputsWritable(at: .seconds(5))
        #expect(resumed == .init(paused: .seconds(4), said: false))
        let next = run.outputFull(at: .seconds(6), said: true)
        #expect(next && run.saysStall, "the next stall is a full disk's")
    }

    @Test func checkpointFailuresAreSaidOnceAndTheRecoveryToo() {
        var run = RunCondition()
        let r7 = run.checkpointSaved()
        #expect(!r7)
        let r8 = run.checkpointFailed()
        #expect(r8)
        let r9 = run.checkpointFailed()
        #expect(!r9)
        #expect(run.checkpoints == .failing && run.mayCheckpoint, "still tried after every batch")
        let r10 = run.checkpointSaved()
        #expect(r10)
        #expect(run.checkpoints == .saving)
    }

    @Test func aStopDuringACatchUpFreezesCheckpointsForGood() {
        var run = RunCondition()
        _ = run.outputFull(at: .zero)
        run.freezeCheckpoints()
        _ = run.outputsWritable(at: .seconds(1))
        #expect(!run.mayCheckpoint)
        let r11 = run.checkpointSaved()
        let r12 = run.checkpointFailed()
        #expect(!r11 && !r12)
        #expect(run.checkpoints == .frozen)
    }

    @Test func settingsComeFromTheConfigWithTheDocumentedDefaults() {
        #expect(RunSettings.defaults.rotateWait == .seconds(5))
        #expect(RunSettings.defaults.idleTimeout == .seconds(1))
        #expect(RunSettings.defaults.syncInterval == .seconds(1))
        #expect(RunSettings.defaults.maxOpenFiles == 1024)
        var config = SpytailConfig()
        config.tail.rotateWaitMs = 250
        config.parse.multiline = .init(continuation: "^\\s")
        config.parse.multiline?.idleTimeoutMs = 40
        let settings = RunSettings(config: config)
        #expect(settings.rotateWait == .milliseconds(250) && settings.idleTimeout == .milliseconds(40))
    }
}
