/// A clock that moves only when a test says so.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    public private(set) var now = Instant(offset: .zero)
    public var minimumResolution: Duration { .nanoseconds(1) }

    public init() {}

    public func advance(by duration: Duration) { now = now.advanced(by: duration) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        // Tests advance the clock by hand; nothing in spytail's logic sleeps on it.
        if deadline > now { now = deadline }
    }
}
