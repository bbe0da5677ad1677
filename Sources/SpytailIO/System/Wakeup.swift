/// A wake-up call between threads that coalesces: any number of `signal()`s before a `wait` wake it once,
/// and nothing piles up while no one waits (unlike a queue of `Void`s).
public final class Wakeup: @unchecked Sendable {
    private let lock = ThreadLock()
    private var signalled = false

    public init() {}

    public func signal() {
        lock.withLock { signalled = true }
        lock.broadcast()
    }

    /// Returns once signalled since the last wait (at once if it already was), or after `timeout` (nil: no
    /// limit); true when signalled. Clears the signal.
    @discardableResult
    public func wait(timeout: Duration?) -> Bool {
        lock.withLock {
            if let timeout {
                if !signalled { lock.wait(for: timeout) { signalled } }
            } else {
                while !signalled { lock.wait() }
            }
            defer { signalled = false }
            return signalled
        }
    }
}
