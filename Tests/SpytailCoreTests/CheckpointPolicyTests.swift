import Testing
import SpytailCore

/// The checkpoint commit policy without a store or outputs: marks are plain counts, acknowledged up to a
/// number the test moves; each step's action is checked.
struct CheckpointPolicyTests {
    typealias Policy = CheckpointPolicy<Int>

    func positions(_ offset: Int64) -> SavedPositions {
        SavedPositions(checkpoints: [Checkpoint(path: "/l/a.log", identity: FileIdentity(device: 1, inode: 2),
                                                fingerprint: Fingerprint(value: 7), offset: offset, tailHash: 0)])
    }

    let second = Duration.seconds(1)

    @Test func aChangedSetIsWrittenThenSyncedWhenTheIntervalHasPassed() {
        var policy = Policy()
        policy.note(positions(10), marks: [])
        #expect(policy.decide(now: .zero, durable: false, syncInterval: second) { _ in true } == .save(positions(10), durable: false))
        policy.saved(at: .zero)
        #expect(policy.unsynced && policy.nextSync(syncInterval: second) == second)
        // The same set again: nothing to write, and the sync is not due yet.
        policy.note(positions(10), marks: [])
        #expect(policy.decide(now: .milliseconds(500), durable: false, syncInterval: second) { _ in true } == .nothing)
        #expect(policy.decide(now: second, durable: false, syncInterval: second) { _ in true } == .save(positions(10), durable: true))
        policy.saved(at: second)
        #expect(!policy.unsynced && policy.nextSync(syncInterval: second) == nil && policy.lastSavedAt == second)
        #expect(policy.decide(now: .seconds(5), durable: false, syncInterval: second) { _ in true } == .nothing)
    }

    @Test func theNewestSetEveryOutputAcknowledgedIsTheOneSaved() {
        var policy = Policy()
        var acknowledged = 0
        policy.note(positions(100), marks: [5])
        policy.note(positions(200), marks: [10])
        policy.note(positions(300), marks: [15])
        #expect(policy.decide(now: .zero, durable: false, syncInterval: second) { $0 <= acknowledged } == .nothing)
        #expect(policy.pendingCount == 3)
        acknowledged = 12
        #expect(policy.decide(now: .zero, durable: false, syncInterval: second) { $0 <= acknowledged } == .save(positions(200), durable: false))
        policy.saved(at: .zero)
        #expect(policy.pendingCount == 1 && policy.lastSaved == positions(200))
    }

    @Test func aFailedSaveKeepsEverythingAndIsAskedAgain() {
        var policy = Policy()
        policy.note(positions(10), marks: [])
        #expect(policy.decide(now: .zero, durable: true, syncInterval: second) { _ in true } == .save(positions(10), durable: true))
        policy.saveFailed()
        #expect(policy.pendingCount == 1 && policy.lastSaved == SavedPositions() && policy.lastSavedAt == nil)
        #expect(policy.decide(now: .zero, durable: false, syncInterval: second) { _ in true } == .save(positions(10), durable: false))
    }

    @Test func anOutputErrorMakesTheLastSaveDurableOnlyIfItIsNot() {
        var policy = Policy()
        #expect(policy.makeLastSaveDurable() == .nothing)
        policy.note(positions(10), marks: [])
        _ = policy.decide(now: .zero, durable: false, syncInterval: second) { _ in true }
        policy.saved(at: .zero)
        #expect(policy.makeLastSaveDurable() == .save(positions(10), durable: true))
        policy.saved(at: .milliseconds(10))
        #expect(!policy.unsynced && policy.makeLastSaveDurable() == .nothing)
    }

    @Test func waitingSetsStayBoundedAndTheNewestIsKept() {
        var policy = Policy()
        for offset in 1...1_000 { policy.note(positions(Int64(offset)), marks: [offset]) }
        #expect(policy.pendingCount == Policy.maxPending)
        #expect(policy.decide(now: .zero, durable: false, syncInterval: second) { $0 <= 1_000 } == .save(positions(1_000), durable: false))
    }
}
