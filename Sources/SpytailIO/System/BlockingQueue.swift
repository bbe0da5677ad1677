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
