import SpytailCore
import SpytailIO
import Testing
@testable import SpytailShipping

/// The network output's decisions, played with a time of our choosing: what is sent when, what an answer
/// means, what is said once, and what a stop or a hand-over in the middle of a send leaves behind.
struct DeliveryMachineTests {
    /// Jitter at its high end: each backoff wait is its whole step. (A generator stuck at 0 would never
    /// leave `Int.random(in:)`'s rejection loop.)
    struct HighJitter: RandomNumberGenerator {
        mutating func next() -> UInt64 { .max }
    }

    struct Limits: BatchedDestination {
        var batchMaxRecords = 2
        var batchMaxMs = 1000
        var bufferMaxRecords = 10
        var shutdownTimeoutMs = 5000
    }

    typealias Machine = DeliveryMachine<HighJitter>

    func machine(_ limits: Limits = Limits()) -> Machine {
        Machine(name: "ch", framing: .newline, limits: BatchingOutput.Limits(limits), jitter: HighJitter())
    }

    func rows(_ range: ClosedRange<Int>) -> [UInt8] { range.flatMap { Array("r\($0)\n".utf8) } }

    @discardableResult
    func take(_ m: inout Machine, _ range: ClosedRange<Int>, at now: Duration = .zero) -> (bytes: Int, records: Int) {
        rows(range).withUnsafeBufferPointer { m.take($0, now: now) }
    }

    func sent(_ step: Machine.Step) -> [UInt8]? {
        if case .send(let batch) = step { return batch.bytes }
        return nil
    }

    let down = DeliveryFailure.connection("connect: Connection refused")

    @Test func theTransportIsPreparedBeforeTheFirstRecordAndBatchesGoInOrder() {
        var m = machine()
        #expect(m.nextStep(now: .zero, needsPreparation: true) == .prepare)
        #expect(m.state == .preparing)
        #expect(m.completed(.accepted, now: .zero) == .init())
        #expect(m.nextStep(now: .zero, needsPreparation: false) == .wait(until: nil))
        take(&m, 1...5)
        #expect(sent(m.nextStep(now: .zero, needsPreparation: false)) == rows(1...2))
        #expect(m.completed(.accepted, now: .zero) == .init(acknowledged: 2, notices: [.acknowledged]))
        #expect(sent(m.nextStep(now: .zero, needsPreparation: false)) == rows(3...4))
        #expect(m.completed(.accepted, now: .zero).acknowledged == 2)
        // The fifth record waits in the open batch until it is a second old.
        #expect(m.nextStep(now: .milliseconds(999), needsPreparation: false) == .wait(until: .seconds(1)))
        #expect(sent(m.nextStep(now: .seconds(1), needsPreparation: false)) == rows(5...5))
        #expect(m.completed(.accepted, now: .seconds(1)).acknowledged == 1)
        #expect(m.buffer.records == 0)
    }

    @Test func aFailureIsSaidOnceRetriedWithGrowingPausesAndItsEndIsSaid() {
        var m = machine()
        take(&m, 1...2)
        var now = Duration.seconds(10)
        var pauses: [Duration] = []
        var said: [DeliveryNotice] = []
        for _ in 0..<4 {
            #expect(sent(m.nextStep(now: now, needsPreparation: false)) == rows(1...2))
            let completion = m.completed(.failed(down), now: now)
            #expect(completion.resetTransport && completion.acknowledged == 0)
            said += completion.notices
            guard case .pausing(let until) = m.state else {
                Issue.record("not pausing after a failure: \(m.state)")
                return
            }
            pauses.append(until - now)
            #expect(m.nextStep(now: until - .milliseconds(1), needsPreparation: false) == .wait(until: until))
            now = until
        }
        #expect(pauses == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
        #expect(said == [.problem(.deliveryFailing(destination: "ch", reason: down.description, waiting: 2))])
        // Another cause is said; the run of failures still dates from its first.
        #expect(sent(m.nextStep(now: now, needsPreparation: false)) != nil)
        let other = DeliveryFailure.connection("read: Connection reset by peer")
        #expect(m.completed(.failed(other), now: now).notices.count == 1)
        #expect(m.state == .pausing(until: now + .milliseconds(1600)))
        now += .milliseconds(1600)  // 3.1 s after the first failure
        #expect(sent(m.nextStep(now: now, needsPreparation: false)) != nil)
        let recovered = m.completed(.accepted, now: now)
        #expect(recovered.notices == [.problem(.deliveryRecovered(destination: "ch", afterSeconds: 3)), .acknowledged])
        #expect(recovered.acknowledged == 2 && m.failure == nil)
        // The backoff starts over after a success.
        take(&m, 3...4, at: now)
        _ = m.nextStep(now: now, needsPreparation: false)
        _ = m.completed(.failed(down), now: now)
        #expect(m.state == .pausing(until: now + .milliseconds(100)))
    }

    @Test func aRefusalWaitsThirtySecondsAndNamesTheDestinationsText() {
        var m = machine()
        take(&m, 1...2)
        _ = m.nextStep(now: .zero, needsPreparation: false)
        let refusal = DeliveryFailure.status(code: 404, text: "Table default.nope does not exist")
        let completion = m.completed(.failed(refusal), now: .zero)
        #expect(completion.notices == [.problem(.deliveryRefused(destination: "ch", reason: "HTTP 404: Table default.nope does not exist", retrySeconds: 30))])
        #expect(m.state == .pausing(until: .seconds(30)))
        #expect(DeliveryFailure.status(code: 503, text: "").isRefusal == false)
        #expect(DeliveryFailure.refused("500 error").isRefusal)
    }

    @Test func afterAFailureTheTransportIsPreparedAgainBeforeTheBatch() {
        var m = machine()
        take(&m, 1...2)
        _ = m.nextStep(now: .zero, needsPreparation: false)
        _ = m.completed(.failed(down), now: .zero)
        #expect(m.nextStep(now: .seconds(1), needsPreparation: true) == .prepare)
        #expect(m.completed(.accepted, now: .seconds(1)).notices.count == 1)  // recovered
        #expect(sent(m.nextStep(now: .seconds(1), needsPreparation: false)) == rows(1...2))
    }

    @Test func finishingSendsTheOpenBatchAtOnceAndPreparesOnlyForABatch() {
        var m = machine(Limits(batchMaxRecords: 100))
        take(&m, 1...3)
        m.finish()
        #expect(sent(m.nextStep(now: .zero, needsPreparation: false)) == rows(1...3))
        _ = m.completed(.accepted, now: .zero)
        #expect(m.nextStep(now: .zero, needsPreparation: true) == .wait(until: nil))
    }

    @Test func aStopOrAHandOverDuringASendLeavesItUncounted() {
        var m = machine()
        take(&m, 1...3)
        _ = m.nextStep(now: .zero, needsPreparation: false)
        let handed = m.handOver()
        #expect(m.completed(.accepted, now: .zero) == .init())
        #expect(m.nextStep(now: .zero, needsPreparation: false) == .end)
        var next = machine()
        next.adopt(handed)
        take(&next, 4...4)
        next.finish()
        var delivered: [UInt8] = []
        while let bytes = sent(next.nextStep(now: .zero, needsPreparation: false)) {
            delivered += bytes
            _ = next.completed(.accepted, now: .zero)
        }
        #expect(delivered == rows(1...4))
        var stopped = machine()
        take(&stopped, 1...2)
        _ = stopped.nextStep(now: .zero, needsPreparation: false)
        stopped.stop()
        #expect(stopped.completed(.accepted, now: .zero).acknowledged == 0)
        #expect(stopped.buffer.records == 2)
    }

    @Test func aFullBufferTakesNoMoreUntilABatchIsAcknowledged() {
        var m = machine(Limits(batchMaxRecords: 2, bufferMaxRecords: 4))
        #expect(take(&m, 1...6).records == 4)
        _ = m.nextStep(now: .zero, needsPreparation: false)
        _ = m.completed(.accepted, now: .zero)
        #expect(take(&m, 5...6).records == 2)
    }
}
