import SpytailCore
import SpytailIO

/// A network output (`clickhouse`, `syslog`): takes the formatter's bytes on the run's thread into a
/// bounded `RecordBuffer`, and on its own thread sends the batches in order through its transport, one
/// batch in flight. A batch the destination acknowledged is counted in the `DeliveryLedger`, which is what
/// lets checkpoints move. Failures are retried with backoff for ever; a refusal (a 4xx, a wrong table or
/// column) is said with the destination's text and tried again every 30 s, nothing dropped, until a reload
/// brings a fixed config (the new output adopts the batches).
final class BatchingOutput: ByteWriter, AcknowledgingOutput, @unchecked Sendable {
    struct Limits {
        let batchMaxRecords: Int
        let batchMaxMs: Int
        let bufferMaxRecords: Int
        let shutdownTimeoutMs: Int

        init(_ settings: some BatchedDestination) {
            batchMaxRecords = settings.batchMaxRecords
            batchMaxMs = settings.batchMaxMs
            bufferMaxRecords = settings.bufferMaxRecords
            shutdownTimeoutMs = settings.shutdownTimeoutMs
        }
    }

    struct State {
        var buffer: RecordBuffer
        var running = false
        var finishing = false
        /// Stopped or handed over: the thread ends, a result that comes back is not counted.
        var stopped = false
    }

    let limits: Limits
    /// Which outputs may take each other's batches over on reload (the same kind of destination).
    let kind: String
    private let makeTransport: @Sendable () -> any BatchTransport
    private let state: Locked<State>
    /// Wakes the delivery thread (a sealed batch, a stop); progress wakes `finish`.
    private let wake = BlockingQueue<Void>()
    private let progress = BlockingQueue<Void>()
    /// Replaced only by `adopt`, before `start`.
    public private(set) var ledger = DeliveryLedger()
    /// How long a refused batch waits before it is tried again (a fixed table without a reload).
    static let refusedRetry: Duration = .seconds(30)

    /// `makeTransport` is called on the delivery thread when it starts.
    init(name: String, kind: String, framing: RecordFraming, limits: Limits, makeTransport: @escaping @Sendable () -> any BatchTransport) {
        self.name = name
        self.kind = kind
        self.limits = limits
        self.makeTransport = makeTransport
        state = Locked(State(buffer: RecordBuffer(framing: framing, batchMaxRecords: limits.batchMaxRecords,
                                                 bufferMaxRecords: limits.bufferMaxRecords)))
    }

    public let name: String

    // MARK: the run's thread

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        let now = ContinuousClock.now
        let (taken, records, waiting) = state.withLock { s in
            let (taken, records) = s.buffer.take(bytes, now: now)
            return (taken, records, s.buffer.records)
        }
        ledger.take(records)
        if records > 0 { wake.push(()) }
        if taken < bytes.count {
            throw SinkError(destination: name, cause: .waiting("\(waiting) records wait for the server (bufferMaxRecords)"), written: taken)
        }
    }

    public func start(notify: @escaping @Sendable (DeliveryNotice) -> Void) {
        guard state.withLock({ s in
            defer { s.running = true }
            return !s.running && !s.stopped
        }) else { return }
        let makeTransport = self.makeTransport
        WorkerThreads(count: 1) { [self] _ in
            let transport = makeTransport()
            deliver(transport, notify: notify)
            transport.close()
        }.detach()
    }

    public func finish() -> UInt64 {
        let deadline = ContinuousClock.now + .milliseconds(limits.shutdownTimeoutMs)
        state.withLock { $0.finishing = true }
        wake.push(())
        while ledger.unacknowledged > 0, !state.withLock({ $0.stopped }) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            _ = progress.pop(timeout: left)
        }
        let left = ledger.unacknowledged
        stop()
        return left
    }

    public func takeEverything() { state.withLock { $0.buffer.unbounded = true } }

    public func adopt(_ previous: any AcknowledgingOutput) {
        guard let old = previous as? BatchingOutput, old.kind == kind else { return }
        let handed = old.state.withLock { s in
            s.stopped = true
            return s.buffer.handOver()
        }
        old.wake.push(())
        state.withLock { $0.buffer.adopt(handed) }
        ledger = old.ledger
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        wake.push(())
        progress.push(())
    }

    // MARK: the delivery thread

    private func deliver(_ transport: any BatchTransport, notify: @Sendable (DeliveryNotice) -> Void) {
        var failure: Failure?
        var backoff = Backoff()
        while true {
            guard let next = nextStep(transport) else { return }
            let outcome: DeliveryOutcome
            switch next {
            case .wait(let timeout):
                _ = wake.pop(timeout: timeout)
                continue
            case .prepare:
                outcome = transport.needsPreparation ? transport.prepare() : .accepted
            case .send(let batch):
                if transport.needsPreparation {  // reconnect first; the batch goes on the next turn
                    outcome = transport.prepare()
                    if outcome == .accepted { continue }
                } else {
                    outcome = transport.send(batch)
                }
            }
            switch outcome {
            case .accepted:
                guard accept(next) else { return }
                backoff.reset()
                if let since = failure?.since {
                    notify(.problem(.deliveryRecovered(destination: name, afterSeconds: since.duration(to: .now).components.seconds)))
                    failure = nil
                }
                if case .send = next { notify(.acknowledged) }
                progress.push(())
            case .failed(let reason, let refused):
                if failure == nil || failure?.reason != reason {
                    let waiting = UInt64(state.withLock { $0.buffer.records })
                    notify(.problem(refused
                        ? .deliveryRefused(destination: name, reason: reason, retrySeconds: Self.refusedRetry.components.seconds)
                        : .deliveryFailing(destination: name, reason: reason, waiting: waiting)))
                    failure = Failure(since: failure?.since ?? .now, reason: reason)
                }
                transport.reset()
                if !pause(refused ? Self.refusedRetry : backoff.next()) { return }
            }
        }
    }

    enum Step {
        case wait(Duration?)
        case prepare
        case send(RecordBuffer.Batch)
    }

    struct Failure {
        let since: ContinuousClock.Instant
        let reason: String
    }

    /// What to do next; nil: stop. A transport is prepared at once (connected, its table created) before
    /// the first record comes.
    private func nextStep(_ transport: any BatchTransport) -> Step? {
        let now = ContinuousClock.now
        let maxAge = Duration.milliseconds(limits.batchMaxMs)
        let prepare = transport.needsPreparation
        return state.withLock { s -> Step? in
            if s.stopped { return nil }
            if prepare && !s.finishing { return .prepare }
            let ready = s.buffer.sealIfDue(now: now, maxAge: maxAge, force: s.finishing)
            guard ready else {
                if s.finishing && s.buffer.isEmpty { return .wait(.milliseconds(100)) }
                return .wait(s.buffer.openDeadline(maxAge: maxAge).map { max(.milliseconds(1), now.duration(to: $0)) })
            }
            return .send(s.buffer.sealed[0])
        }
    }

    /// Counts an accepted step; false when this output was stopped or handed over meanwhile (then the
    /// batch belongs to another output, or to the next run, and is not counted here).
    private func accept(_ step: Step) -> Bool {
        let records: Int? = state.withLock { s in
            guard !s.stopped else { return nil }
            switch step {
            case .prepare:
                return 0
            case .send(let batch):
                s.buffer.removeFirst()
                return batch.records
            case .wait:
                return 0
            }
        }
        guard let records else { return false }
        ledger.acknowledge(records)
        return true
    }

    /// Waits `duration` unless stopped; false when stopped. A finish waits no longer than its deadline
    /// (its own loop gives up then).
    private func pause(_ duration: Duration) -> Bool {
        let until = ContinuousClock.now + duration
        while true {
            if state.withLock({ $0.stopped }) { return false }
            let left = ContinuousClock.now.duration(to: until)
            guard left > .zero else { return true }
            _ = wake.pop(timeout: left)
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
