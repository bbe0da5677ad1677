import SpytailCore
import SpytailIO

/// A clock that moves only when a test says so; whoever waits on it (the tailer's loop) is told when it moves.
public final class ManualClock: SteppedClock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let state = Locked<(now: Instant, observers: [@Sendable () -> Void])>((Instant(offset: .zero), []))
    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public init() {}

    public func advance(by duration: Duration) {
        let observers = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            return state.observers
        }
        for observer in observers { observer() }
    }

    public func onAdvance(_ action: @escaping @Sendable () -> Void) { state.withLock { $0.observers.append(action) } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        // Tests advance the clock by hand; nothing in spytail's logic sleeps on it.
        if deadline > now { advance(by: now.duration(to: deadline)) }
    }
}
