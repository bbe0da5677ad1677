import Glibc
import Synchronization
import SpytailCore

/// The narrow window between `run`'s loop and whoever observes it (the HTTP face): the loop publishes a
/// `RunSnapshot`, recent entries and problems after each batch and never waits on a reader; observers read
/// copies and send `RunRequest`s, which arrive in the loop's inbox like signals do.
public final class RunTelemetry: Sendable {
    public let recent: RecentEntries
    public let startedAt: Double
    /// Unix time of the start, for people.
    public let startedAtUnix: Int64
    private let snapshot = Locked(RunSnapshot())
    private let problems = Locked<[String]>([])
    /// When the loop last turned over (CLOCK_MONOTONIC seconds).
    private let heartbeat = Locked<Double>(0)
    private let requests = Locked<[@Sendable (RunRequest) -> Void]>([])
    private let latency = Locked<[Double]>([])
    private let context = Locked<ViewContext?>(nil)
    private let gaps = Locked<[String: Int]>([:])
    private let viewed = Atomic<Bool>(false)
    /// Observers waiting for the loop to publish a state, by number; each is resumed once, by whoever takes
    /// it out (a publish of its state, or its deadline).
    private let stateWaiters = Locked<(next: Int, waiting: [Int: StateWaiter])>((0, [:]))

    private struct StateWaiter {
        let wanted: SpyState
        let continuation: CheckedContinuation<Bool, Never>
    }

    public static let problemsKept = 50

    public init(recentEntries: Int) {
        recent = RecentEntries(capacity: recentEntries)
        startedAt = Self.monotonicSeconds()
        startedAtUnix = Int64(time(nil))
    }

    // MARK: the loop's side

    public func publish(_ update: (inout RunSnapshot) -> Void) {
        let state = snapshot.withLock { snapshot in
            update(&snapshot)
            return snapshot.state
        }
        beat()
        resumeWaiters(for: state)
    }

    private func resumeWaiters(for state: SpyState) {
        let due = stateWaiters.withLock { waiters -> [StateWaiter] in
            guard !waiters.waiting.isEmpty else { return [] }
            let due = waiters.waiting.filter { $0.value.wanted == state }
            for key in due.keys { waiters.waiting[key] = nil }
            return Array(due.values)
        }
        for waiter in due { waiter.continuation.resume(returning: true) }
    }

    public func beat() { heartbeat.withLock { $0 = Self.monotonicSeconds() } }

    public func problem(_ text: String) {
        problems.withLock { list in
            list.append(text)
            if list.count > Self.problemsKept { list.removeFirst(list.count - Self.problemsKept) }
        }
        snapshot.withLock { $0.problems += 1 }
    }

    /// Seconds from a batch's arrival to its records being written, for the export-latency histogram.
    public func exported(after seconds: Double) {
        latency.withLock { if $0.count < 100_000 { $0.append(seconds) } }
    }

    /// Where requests go (the run loop's inbox).
    public func onRequest(_ handler: @escaping @Sendable (RunRequest) -> Void) { requests.withLock { $0.append(handler) } }

    /// The running config's words (view filters compile against them); published at start and on reload.
    public func publish(context newContext: ViewContext) { context.withLock { $0 = newContext } }

    public func countGap(reason: String) { gaps.withLock { $0[reason, default: 0] += 1 } }

    // MARK: the observers' side

    /// Whether anyone can look at recent entries (the HTTP face is listening). Copying every exported entry
    /// for viewers costs a second formatting of each record, so the run taps its pipelines only while this is
    /// true; set by the face's controller, followed by the loop at its next batch.
    public var collectsEntries: Bool {
        get { viewed.load(ordering: .relaxed) }
        set { viewed.store(newValue, ordering: .relaxed) }
    }

    public var viewContext: ViewContext? { context.withLock { $0 } }
    public var gapsByReason: [String: Int] { gaps.withLock { $0 } }

    public var current: RunSnapshot { snapshot.withLock { $0 } }
    public var lastProblems: [String] { problems.withLock { $0 } }
    /// Seconds since the loop last turned over.
    public var secondsSinceBeat: Double { Self.monotonicSeconds() - heartbeat.withLock { $0 } }
    public var uptime: Double { Self.monotonicSeconds() - startedAt }

    /// Latencies recorded since the last call.
    public func takeLatencies() -> [Double] { latency.withLock { list in defer { list = [] }; return list } }

    /// Waits until the loop publishes `wanted` as its state (at once if it already has); false when `limit`
    /// passes first. Woken by the publish itself: no polling.
    public func state(_ wanted: SpyState, publishedWithin limit: Duration) async -> Bool {
        if current.state == wanted { return true }
        let id = stateWaiters.withLock { waiters in
            defer { waiters.next += 1 }
            return waiters.next
        }
        return await withCheckedContinuation { continuation in
            stateWaiters.withLock { $0.waiting[id] = StateWaiter(wanted: wanted, continuation: continuation) }
            // A publish between the first look and here found nobody waiting: look again.
            if current.state == wanted {
                takeWaiter(id)?.continuation.resume(returning: true)
                return
            }
            // The deadline, started once the waiter is in place (a publish may still take it first; then this
            // timer finds nothing when it ends).
            Task {
                try? await Task.sleep(for: limit)
                self.takeWaiter(id)?.continuation.resume(returning: false)
            }
        }
    }

    private func takeWaiter(_ id: Int) -> StateWaiter? {
        stateWaiters.withLock { $0.waiting.removeValue(forKey: id) }
    }

    public func request(_ request: RunRequest) {
        for handler in requests.withLock({ $0 }) { handler(request) }
    }

    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
