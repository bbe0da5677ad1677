import SpytailIO

/// Every decision of a network output (`BatchingOutput`), with no I/O and no clock: which step its delivery
/// thread takes next, and what a transport's answer means (records acknowledged, a problem to say once, a
/// pause before the next try). Time comes in as `now`, the time since the output's origin, so a test can
/// play any schedule. Events in: `take`, `nextStep`, `completed`, `finish`, `stop`, `handOver`.
///
/// One step is in flight at a time. A stop or a hand-over while it is in flight wins: its answer is then
/// not counted (the batch belongs to the next output or the next run).
struct DeliveryMachine<Jitter: RandomNumberGenerator> {
    enum State: Equatable {
        /// Nothing in flight: the next step is decided from the buffer and the transport.
        case ready
        /// A step was handed to the transport; its answer is awaited.
        case preparing
        case sending(records: Int)
        /// The last step failed: nothing is tried before `until`.
        case pausing(until: Duration)
        /// Stopped or handed over: nothing is sent or counted any more.
        case stopped
    }

    enum Step: Equatable {
        /// Connect, create the table: the transport's `prepare()`.
        case prepare
        /// The first sealed batch, to the destination.
        case send(RecordBuffer.Batch)
        /// Nothing to do before `until` (nil: before something happens).
        case wait(until: Duration?)
        /// The output stopped: the thread ends.
        case end
    }

    /// What the driver does after an answer.
    struct Completion: Equatable {
        /// Records the destination acknowledged (they go to the ledger).
        var acknowledged = 0
        /// To post to the run, in order.
        var notices: [DeliveryNotice] = []
        /// Drop the transport's connections (after a failure).
        var resetTransport = false
    }

    /// A run of failures: when it began and its latest cause.
    struct Failure: Equatable {
        let since: Duration
        let cause: DeliveryFailure
    }

    let name: String
    let limits: BatchingOutput.Limits
    /// How long a refused batch waits before it is tried again (a fixed table without a reload).
    static var refusedRetry: Duration { .seconds(30) }

    private(set) var state = State.ready
    private(set) var buffer: RecordBuffer
    /// A stop is coming: the open batch goes now, and nothing new is prepared for.
    private(set) var finishing = false
    private(set) var failure: Failure?
    private var backoff = Backoff()
    private var jitter: Jitter

    init(name: String, framing: RecordFraming, limits: BatchingOutput.Limits, jitter: Jitter) {
        self.name = name
        self.limits = limits
        self.jitter = jitter
        buffer = RecordBuffer(framing: framing, batchMaxRecords: limits.batchMaxRecords, bufferMaxRecords: limits.bufferMaxRecords)
    }

    var maxAge: Duration { .milliseconds(limits.batchMaxMs) }

    // MARK: the run's side

    /// Takes whole records from `bytes` while there is room: the bytes and records taken.
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, now: Duration) -> (bytes: Int, records: Int) {
        buffer.take(bytes, now: now)
    }

    /// From now on everything is taken, beyond `bufferMaxRecords` (a reload hands this output over).
    mutating func takeEverything() { buffer.unbounded = true }

    mutating func finish() { finishing = true }

    mutating func stop() { state = .stopped }

    /// Stops this output and gives up everything it holds, for the output that replaces it.
    mutating func handOver() -> RecordBuffer {
        state = .stopped
        return buffer.handOver()
    }

    /// Takes the batches of the output this one replaces, in front of its own.
    mutating func adopt(_ other: RecordBuffer) { buffer.adopt(other) }

    // MARK: the delivery thread's side

    /// The next step. A transport is prepared at once (connected, its table created) before the first record
    /// comes, and again before a batch after a failure; a finishing output prepares only for a batch.
    mutating func nextStep(now: Duration, needsPreparation: Bool) -> Step {
        switch state {
        case .stopped:
            return .end
        case .pausing(let until) where now < until:
            return .wait(until: until)
        case .preparing, .sending:
            preconditionFailure("\(name): a step was asked for while one is in flight")
        case .ready, .pausing:
            state = .ready
        }
        let due = buffer.sealIfDue(now: now, maxAge: maxAge, force: finishing)
        if needsPreparation && (due || !finishing) {
            state = .preparing
            return .prepare
        }
        guard due else { return .wait(until: buffer.openDeadline(maxAge: maxAge)) }
        let batch = buffer.sealed[0]
        state = .sending(records: batch.records)
        return .send(batch)
    }

    /// The transport's answer to the step in flight.
    mutating func completed(_ outcome: DeliveryOutcome, now: Duration) -> Completion {
        let step = state
        guard step == .preparing || step.isSending else { return Completion() }  // stopped meanwhile: not counted
        var completion = Completion()
        switch outcome {
        case .accepted:
            if case .sending(let records) = step {
                buffer.removeFirst()
                completion.acknowledged = records
            }
            backoff.reset()
            if let failure {
                completion.notices.append(.problem(.deliveryRecovered(destination: name, afterSeconds: (now - failure.since).components.seconds)))
                self.failure = nil
            }
            if step.isSending { completion.notices.append(.acknowledged) }
            state = .ready
        case .failed(let cause):
            if failure?.cause != cause { completion.notices.append(.problem(problem(cause))) }
            failure = Failure(since: failure?.since ?? now, cause: cause)
            completion.resetTransport = true
            state = .pausing(until: now + (cause.isRefusal ? Self.refusedRetry : backoff.next(using: &jitter)))
        }
        return completion
    }

    private func problem(_ cause: DeliveryFailure) -> RunProblem {
        cause.isRefusal
            ? .deliveryRefused(destination: name, reason: cause.description, retrySeconds: Self.refusedRetry.components.seconds)
            : .deliveryFailing(destination: name, reason: cause.description, waiting: UInt64(buffer.records))
    }
}

extension DeliveryMachine.State {
    var isSending: Bool {
        if case .sending = self { return true }
        return false
    }
}
