/// A one-shot signal from one thread to another: a worker says a block is done, the writer waits for it.
public final class Completion: @unchecked Sendable {
    private let lock = ThreadLock()
    private var done = false

    public init() {}

    public func signal() {
        lock.withLock { done = true }
        lock.broadcast()
    }

    public func wait() {
        lock.withLock { while !done { lock.wait() } }
    }
}
