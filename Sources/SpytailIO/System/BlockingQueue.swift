import Dispatch
import Synchronization

/// A FIFO that consumers wait on: a mutex-protected array and a counting semaphore.
/// `close(consumers:)` wakes every consumer with nil.
public final class BlockingQueue<Element: Sendable>: Sendable {
    private let items = Mutex<[Element?]>([])
    private let available = DispatchSemaphore(value: 0)

    public init() {}

    public func push(_ element: Element) {
        items.withLock { $0.append(element) }
        available.signal()
    }

    /// The next element, waiting for one; nil once the queue is closed and drained.
    public func pop() -> Element? {
        available.wait()
        return items.withLock { $0.removeFirst() }
    }

    /// Wakes `consumers` waiting consumers with nil (after the elements already queued).
    public func close(consumers: Int) {
        for _ in 0..<consumers {
            items.withLock { $0.append(nil) }
            available.signal()
        }
    }
}
