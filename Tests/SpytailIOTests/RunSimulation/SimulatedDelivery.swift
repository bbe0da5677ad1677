import Glibc
import SpytailCore
@testable import SpytailIO

/// The run's second output in schedules that have one: a destination that acknowledges records later than
/// they are written, as ClickHouse and RELP do, at the steps the schedule chooses (`acknowledge`). It stands
/// where `BatchingOutput` stands (an `AcknowledgingOutput` opened by the run's `RemoteOutputOpener`), so the
/// run's ledger, its pause behind a full buffer and its checkpoint marks are the production ones.
///
/// Records taken wait in a buffer of `bound` records; past it `write` throws `.waiting` and reading pauses
/// until an acknowledgement makes room. Acknowledged records are appended to a real file that a
/// `SimulatedOutput` reads; records not acknowledged die with the process (a kill, or a stop whose
/// destination did not answer in time). Everything runs on the simulator's thread: `start` starts no thread.
final class SimulatedDelivery: ByteWriter, AcknowledgingOutput, @unchecked Sendable {
    let name = "simulated destination"
    private(set) var ledger = DeliveryLedger()
    /// Where acknowledged records go.
    let path: String
    let bound: Int
    /// Records taken and not acknowledged, each with its newline.
    private var waiting: [ArraySlice<UInt8>] = []
    private var notify: (@Sendable (DeliveryNotice) -> Void)?
    /// A reload is handing over: every byte is taken, whatever the bound.
    private var takesEverything = false
    private(set) var stopped = false
    /// Whether a clean stop's `finish` gets everything acknowledged (the destination answers within the
    /// shutdown timeout); set by the simulator before each stop.
    var answersAtFinish = true
    /// Records `finish` left unacknowledged (read again at the next start).
    private(set) var leftAtFinish: UInt64 = 0

    init(path: String, bound: Int) {
        self.path = path
        self.bound = bound
    }

    var waitingCount: Int { waiting.count }

    // MARK: ByteWriter

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        var taken = 0, records = 0
        while taken < bytes.count, takesEverything || waiting.count < bound {
            let rest = UnsafeBufferPointer(rebasing: bytes[taken...])
            guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else { break }  // formatters write whole records
            waiting.append(ArraySlice(rest[...newline]))
            taken += newline - rest.startIndex + 1
            records += 1
        }
        ledger.take(records)
        if taken < bytes.count {
            throw SinkError(destination: name, cause: .waiting("\(waiting.count) records wait for the destination"), written: taken)
        }
    }

    // MARK: the destination answers

    /// The destination acknowledges the oldest `count` records waiting (fewer if fewer wait), and the run is
    /// told as the delivery thread tells it. Returns how many.
    @discardableResult
    func acknowledge(_ count: Int) -> Int {
        let n = min(count, waiting.count)
        guard n > 0, !stopped else { return 0 }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        precondition(fd >= 0, "the simulated destination's file opens")
        for record in waiting[..<n] {
            record.withUnsafeBytes { raw in _ = Glibc.write(fd, raw.baseAddress, raw.count) }
        }
        close(fd)
        waiting.removeFirst(n)
        ledger.acknowledge(n)
        notify?(.acknowledged)
        return n
    }

    // MARK: AcknowledgingOutput

    func start(notify: @escaping @Sendable (DeliveryNotice) -> Void) { self.notify = notify }

    func finish() -> UInt64 {
        if answersAtFinish { acknowledge(waiting.count) }
        let left = UInt64(waiting.count)
        leftAtFinish = left
        stop()
        return left
    }

    func takeEverything() { takesEverything = true }

    func adopt(_ previous: any AcknowledgingOutput) {
        guard let old = previous as? SimulatedDelivery else { return }
        waiting = old.waiting + waiting
        ledger = old.ledger
        old.waiting = []
        old.stop()
    }

    func stop() {
        stopped = true
        waiting = []
    }
}

/// Opens the simulated destination for the run (at its start and at each reload) and keeps the newest.
final class SimulatedDestination: RemoteOutputOpener, @unchecked Sendable {
    let path: String
    let bound: Int
    private(set) var current: SimulatedDelivery?

    init(path: String, bound: Int) {
        self.path = path
        self.bound = bound
    }

    func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
        let delivery = SimulatedDelivery(path: path, bound: bound)
        current = delivery
        return OpenOutput(formatter: JSONLinesFormatter(vocabulary: vocabulary), writer: delivery, delivery: delivery)
    }

    /// The process died: what its destination had not acknowledged is gone.
    func processDied() {
        current?.stop()
        current = nil
    }
}
