import Glibc

/// A FIFO that consumers wait on, built on a pthread mutex and condition variable (which thread
/// sanitizers understand). `close(consumers:)` wakes every consumer with nil.
public final class BlockingQueue<Element>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var items: [Element?] = []
    private var head = 0

    public init() {}

    public func push(_ element: Element) {
        lock.withLock { items.append(element) }
        lock.signal()
    }

    /// The next element, waiting for one; nil once the queue is closed and drained.
    public func pop() -> Element? {
        lock.withLock {
            while head == items.count { lock.wait() }
            let element = items[head]
            head += 1
            if head == items.count {  // drained: reuse the storage
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return element
        }
    }

    /// Wakes `consumers` waiting consumers with nil (after the elements already queued).
    public func close(consumers: Int) {
        lock.withLock { items += Array(repeating: nil, count: consumers) }
        lock.broadcast()
    }
}

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

/// A pthread mutex with one condition variable, at stable addresses.
final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on the condition; call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
