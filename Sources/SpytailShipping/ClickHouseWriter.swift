import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import SpytailCore
import SpytailIO
import Synchronization

/// A `clickhouse` output: takes the row formatter's bytes on the run's thread into a bounded
/// `ClickHouseBuffer`, and on its own thread sends the batches in order, one insert in flight, over
/// ClickHouse's HTTP interface (AsyncHTTPClient, keep-alive). HTTP 200 acknowledges a batch in the
/// `DeliveryLedger`, which is what lets checkpoints move. Connection errors and 5xx are retried with
/// backoff for ever; a 4xx (a wrong table or column) is said with the server's text and tried again
/// every 30 s, nothing dropped, until a reload brings a fixed config (the new output adopts the batches).
public final class ClickHouseWriter: ByteWriter, AcknowledgingOutput, @unchecked Sendable {
    struct State {
        var buffer: ClickHouseBuffer
        var running = false
        var finishing = false
        /// Stopped or handed over: the thread ends, a result that comes back is not counted.
        var stopped = false
        var tableReady: Bool
    }

    public let settings: ClickHouseOutput
    let endpoint: HTTPEndpoint
    private let password: String?
    private let state: Mutex<State>
    /// Wakes the delivery thread (a sealed batch, a stop); progress wakes `finish`.
    private let wake = BlockingQueue<Void>()
    private let progress = BlockingQueue<Void>()
    /// Replaced only by `adopt`, before `start`.
    public private(set) var ledger = DeliveryLedger()
    /// How long a refused batch waits before it is tried again (a fixed table without a reload).
    static let refusedRetry: Duration = .seconds(30)

    public init(settings: ClickHouseOutput, password: String?) throws(SinkError) {
        guard let endpoint = HTTPEndpoint(settings.url) else {
            throw SinkError(destination: settings.name, cause: .other(errno: 0, message: "not an http(s) address: \(settings.url)"))
        }
        self.settings = settings
        self.endpoint = endpoint
        self.password = password
        state = Mutex(State(buffer: ClickHouseBuffer(batchMaxRecords: settings.batchMaxRecords, bufferMaxRecords: settings.bufferMaxRecords),
                            tableReady: !settings.createTable))
    }

    public var name: String { settings.name }

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
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
            timeout: .init(connect: .seconds(5), read: .seconds(60)),
            connectionPool: .init(idleTimeout: .seconds(60))))
        WorkerThreads(count: 1) { [self] _ in
            deliver(client: client, notify: notify)
            try? client.syncShutdown()
        }.detach()
    }

    public func finish() -> UInt64 {
        let deadline = ContinuousClock.now + .milliseconds(settings.shutdownTimeoutMs)
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
        guard let old = previous as? ClickHouseWriter else { return }
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

    private func deliver(client: HTTPClient, notify: @Sendable (DeliveryNotice) -> Void) {
        var failure: Failure?
        var backoff = Backoff()
        while true {
            guard let next = nextStep() else { return }
            let outcome: Outcome
            switch next {
            case .wait(let timeout):
                _ = wake.pop(timeout: timeout)
                continue
            case .createTable:
                outcome = post(client, query: ClickHouseTable.createStatement(database: settings.database, table: settings.table), body: [])
            case .send(let batch):
                outcome = post(client, query: ClickHouseTable.insertStatement(database: settings.database, table: settings.table), body: batch.bytes)
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
                if !pause(refused ? Self.refusedRetry : backoff.next()) { return }
            }
        }
    }

    enum Step {
        case wait(Duration?)
        case createTable
        case send(ClickHouseBuffer.Batch)
    }

    enum Outcome {
        case accepted
        case failed(reason: String, refused: Bool)
    }

    struct Failure {
        let since: ContinuousClock.Instant
        let reason: String
    }

    /// What to do next; nil: stop.
    private func nextStep() -> Step? {
        let now = ContinuousClock.now
        let maxAge = Duration.milliseconds(settings.batchMaxMs)
        return state.withLock { s -> Step? in
            if s.stopped { return nil }
            if !s.tableReady { return .createTable }  // at once: the table is there before the first row
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
            case .createTable:
                s.tableReady = true
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

    // MARK: HTTP

    private func post(_ client: HTTPClient, query: String, body: [UInt8]) -> Outcome {
        var headers = HTTPHeaders()
        headers.add(name: "X-ClickHouse-User", value: settings.user)
        if let password { headers.add(name: "X-ClickHouse-Key", value: password) }
        headers.add(name: "Content-Type", value: "application/x-ndjson")
        let url = "\(endpoint)/?query=\(Self.percentEncoded(query))"
        do {
            let request = try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .bytes(body))
            let response = try client.execute(request: request, deadline: .now() + .seconds(120)).wait()
            let status = response.status.code
            if status == 200 { return .accepted }
            let text = response.body.map { String(buffer: $0) }?.trimmingWhitespace() ?? ""
            let reason = "HTTP \(status)" + (text.isEmpty ? "" : ": \(text.prefix(500))")
            return .failed(reason: reason, refused: (400..<500).contains(Int(status)))
        } catch {
            return .failed(reason: "\(error)", refused: false)
        }
    }

    /// A query string for the URL: everything but unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
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
