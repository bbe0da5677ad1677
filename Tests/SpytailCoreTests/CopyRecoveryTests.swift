import Testing
import SpytailCore

/// Where a copytruncate's unread rest comes from, step by step through the rotator's moves: each case is a
/// script of looks (what the folder shows), and what the recovery asks for after each.
struct CopyRecoveryTests {
    typealias Candidate = CopyRecovery.Candidate
    static let plain = Candidate(path: "app.log.1", isGzip: false, content: .same)
    static let gzipWhole = Candidate(path: "app.log.1.gz", isGzip: true, content: .same)
    static let gzipJustCreated = Candidate(path: "app.log.1.gz", isGzip: true, content: .undecided)
    static let older = Candidate(path: "app.log.2.gz", isGzip: true, content: .other)

    /// One look: the folder at `now` (seconds), the read outcome of the action if it was a read, the action expected.
    struct Step: Sendable {
        var candidates: [Candidate]
        var now: Int = 0
        var expected: CopyRecovery.Action
        var outcome: CopyRecovery.ReadOutcome?
    }

    static let cases: [(String, [Step])] = [
        ("the plain copy, read whole", [
            Step(candidates: [plain, older], expected: .read(path: "app.log.1", from: 100), outcome: .whole(upTo: 250)),
            Step(candidates: [plain, older], expected: .finish([.copytruncate])),
        ]),
        ("plain and gzip both there (compressing): the plain one first", [
            Step(candidates: [gzipWhole, plain], expected: .read(path: "app.log.1", from: 100), outcome: .whole(upTo: 250)),
            Step(candidates: [gzipWhole, plain], expected: .finish([.copytruncate])),
        ]),
        // The interleaving seen under load: listed while the gzip copy was just created, gone when opened.
        ("the plain copy vanished between the look and the open: the now whole gzip copy", [
            Step(candidates: [gzipJustCreated, plain], expected: .read(path: "app.log.1", from: 100), outcome: .vanished),
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 100), outcome: .whole(upTo: 250)),
            Step(candidates: [gzipWhole], expected: .finish([.copytruncate])),
        ]),
        ("a gzip copy being written: read to where it is, wait for it to be closed, go on from there", [
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 100), outcome: .cutShort(upTo: 180)),
            Step(candidates: [gzipWhole], expected: .wait(for: "app.log.1.gz")),
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 180), outcome: .whole(upTo: 250)),
            Step(candidates: [gzipWhole], expected: .finish([.copytruncate])),
        ]),
        ("a gzip copy just created and nothing else: wait for it", [
            Step(candidates: [gzipJustCreated], expected: .wait(for: "app.log.1.gz")),
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 100), outcome: .whole(upTo: 250)),
            Step(candidates: [gzipWhole], expected: .finish([.copytruncate])),
        ]),
        ("a gzip copy that stays short after its wait is damaged", [
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 100), outcome: .cutShort(upTo: 180)),
            Step(candidates: [gzipWhole], expected: .wait(for: "app.log.1.gz")),
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 180), outcome: .cutShort(upTo: 180)),
            Step(candidates: [gzipWhole], expected: .finish([.damaged, .copytruncate])),
        ]),
        ("past the deadline nothing is waited for", [
            Step(candidates: [gzipWhole], expected: .read(path: "app.log.1.gz", from: 100), outcome: .cutShort(upTo: 180)),
            Step(candidates: [gzipWhole], now: 6, expected: .finish([.damaged, .copytruncate])),
        ]),
        ("no copy with our content: a plain truncation", [
            Step(candidates: [older], expected: .finish([.truncated])),
        ]),
        ("a copy renamed on between the look and the open, then none", [
            Step(candidates: [plain], expected: .read(path: "app.log.1", from: 100), outcome: .otherContent),
            Step(candidates: [plain], expected: .finish([.copytruncate])),
        ]),
    ]

    @Test(arguments: cases)
    func followsTheRotator(_ name: String, _ steps: [Step]) {
        var recovery = CopyRecovery(offset: 100, patience: .seconds(5))
        for (index, step) in steps.enumerated() {
            let action = recovery.next(step.candidates, now: .seconds(step.now))
            #expect(action == step.expected, "\(name), step \(index + 1)")
            if case .read(let path, _) = action, let outcome = step.outcome { recovery.readEnded(path, outcome) }
        }
    }

    @Test func aRotatorThatKeepsMovingIsGivenUpOnAfterABoundedNumberOfLooks() {
        var recovery = CopyRecovery(offset: 0, patience: .seconds(5))
        var looks = 0
        while case .read(let path, _) = recovery.next([Candidate(path: "copy\(looks)", isGzip: false, content: .same)], now: .zero) {
            recovery.readEnded(path, .vanished)
            looks += 1
        }
        #expect(looks == CopyRecovery.maxLooks)
    }

    @Test func theOffsetReachedIsWhereTheGapStarts() {
        var recovery = CopyRecovery(offset: 100, patience: .seconds(5))
        _ = recovery.next([Self.plain], now: .zero)
        recovery.readEnded("app.log.1", .whole(upTo: 250))
        #expect(recovery.offset == 250)
        #expect(recovery.isRecovered)
    }
}
