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
            return takeFirst()
        }
    }

    /// Removes the first element; call with the lock held and an element queued.
    private func takeFirst() -> Element? {
        let element = items[head]
        head += 1
        if head == items.count {  // drained: reuse the storage
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// The next element if one comes within `timeout` (nil: wait as long as it takes); `.timedOut` otherwise.
    public func pop(timeout: Duration?) -> Element?? {
        guard let timeout else { return .some(pop()) }
        return lock.withLock {
            if head == items.count { lock.wait(for: timeout) { head < items.count } }
            guard head < items.count else { return nil }
            return .some(takeFirst())
        }
    }

    /// Takes every element queued now, without waiting.
    public func drain() -> [Element] {
        lock.withLock {
            let taken = items[head...].compactMap { $0 }
            items.removeAll(keepingCapacity: true)
            head = 0
            return taken
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
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // timed waits ignore wall-clock jumps
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on the condition; call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }

    /// Waits until `ready()` holds or `timeout` has passed; call with the lock held.
    func wait(for timeout: Duration, until ready: () -> Bool) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = timeout.components
        var nanos = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var deadline = timespec(tv_sec: now.tv_sec + Int(seconds) + nanos / 1_000_000_000, tv_nsec: 0)
        nanos %= 1_000_000_000
        deadline.tv_nsec = nanos
        while !ready() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return }
        }
    }
    func broadcast() { pthread_cond_broadcast(condition) }
}
