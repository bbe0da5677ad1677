import SpytailCore
import SpytailIO

/// A network output (`clickhouse`, `syslog`): takes the formatter's bytes on the run's thread into a
/// bounded `RecordBuffer`, and on its own thread sends the batches in order through its transport, one
/// batch in flight. A batch the destination acknowledged is counted in the `DeliveryLedger`, which is what
/// lets checkpoints move. Failures are retried with backoff for ever; a refusal (a 4xx, a wrong table or
/// column) is said with the destination's text and tried again every 30 s, nothing dropped, until a reload
/// brings a fixed config (the new output adopts the batches).
///
/// The decisions are `DeliveryMachine`'s; this type only guards it with a lock, reads the clock, carries out
/// its steps with the transport and wakes its delivery thread when something happens (a record, a stop).
final class BatchingOutput: ByteWriter, AcknowledgingOutput, @unchecked Sendable {
    struct Limits: Equatable {
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

    typealias Machine = DeliveryMachine<SystemRandomNumberGenerator>

    public let name: String
    /// Which outputs may take each other's batches over on reload (the same kind of destination).
    let kind: String
    let limits: Limits
    private let makeTransport: @Sendable () -> any BatchTransport
    private let machine: Locked<Machine>
    /// The delivery thread was started (once).
    private let started = Locked(false)
    /// The machine's time: since this output was made.
    private let origin = ContinuousClock.now
    /// Wakes the delivery thread (a record, a finish, a stop); progress wakes `finish`.
    private let wake = Wakeup()
    private let progress = Wakeup()
    /// Replaced only by `adopt`, before `start`.
    public private(set) var ledger = DeliveryLedger()

    /// `makeTransport` is called on the delivery thread when it starts.
    init(name: String, kind: String, framing: RecordFraming, limits: Limits, makeTransport: @escaping @Sendable () -> any BatchTransport) {
        self.name = name
        self.kind = kind
        self.limits = limits
        self.makeTransport = makeTransport
        machine = Locked(Machine(name: name, framing: framing, limits: limits, jitter: SystemRandomNumberGenerator()))
    }

    private var now: Duration { origin.duration(to: .now) }

    // MARK: the run's thread

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        let now = self.now
        let (taken, records, waiting) = machine.withLock { m in
            let (taken, records) = m.take(bytes, now: now)
            return (taken, records, m.buffer.records)
        }
        ledger.take(records)
        if records > 0 { wake.signal() }
        if taken < bytes.count {
            throw SinkError(destination: name, cause: .waiting("\(waiting) records wait for the server (bufferMaxRecords)"), written: taken)
        }
    }

    public func start(notify: @escaping @Sendable (DeliveryNotice) -> Void) {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first, machine.withLock({ $0.state != .stopped }) else { return }
        let makeTransport = self.makeTransport
        WorkerThreads(count: 1) { [self] _ in
            let transport = makeTransport()
            deliver(transport, notify: notify)
            transport.close()
        }.detach()
    }

    public func finish() -> UInt64 {
        let deadline = ContinuousClock.now + .milliseconds(limits.shutdownTimeoutMs)
        machine.withLock { $0.finish() }
        wake.signal()
        while ledger.unacknowledged > 0, machine.withLock({ $0.state != .stopped }) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            progress.wait(timeout: left)
        }
        let left = ledger.unacknowledged
        stop()
        return left
    }

    public func takeEverything() { machine.withLock { $0.takeEverything() } }

    public func adopt(_ previous: any AcknowledgingOutput) {
        guard let old = previous as? BatchingOutput, old.kind == kind else { return }
        let handed = old.machine.withLock { $0.handOver() }
        old.wake.signal()
        old.progress.signal()
        machine.withLock { $0.adopt(handed) }
        ledger = old.ledger
    }

    public func stop() {
        machine.withLock { $0.stop() }
        wake.signal()
        progress.signal()
    }

    // MARK: the delivery thread

    private func deliver(_ transport: any BatchTransport, notify: @Sendable (DeliveryNotice) -> Void) {
        while true {
            let needsPreparation = transport.needsPreparation
            let now = self.now
            let outcome: DeliveryOutcome
            switch machine.withLock({ $0.nextStep(now: now, needsPreparation: needsPreparation) }) {
            case .end:
                return
            case .wait(let until):
                wake.wait(timeout: until.map { max(.milliseconds(1), $0 - self.now) })
                continue
            case .prepare:
                outcome = transport.prepare()
            case .send(let batch):
                outcome = transport.send(batch)
            }
            let completion = machine.withLock { $0.completed(outcome, now: self.now) }
            if completion.resetTransport { transport.reset() }
            if completion.acknowledged > 0 { ledger.acknowledge(completion.acknowledged) }
            for notice in completion.notices { notify(notice) }
            progress.signal()
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
