import Foundation
import Testing

/// Runs each test case of a suite on a thread of its own, at most `OwnThread.slots` at a time.
///
/// End-to-end tests spend most of their time blocked: waiting for the binary's output with a deadline,
/// for a writer to finish, for a server to answer. On the test runner's cooperative threads (one per
/// core) each such wait held a thread, so two of them stalled every other test, unit tests included.
/// Here the body runs on a dedicated thread (a task executor preference, so `#expect` still knows its
/// test) and the cooperative threads stay free; the slots keep the number of live binaries, writers
/// and servers bounded, so timing-sensitive tests do not fight over two cores.
struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    /// Test cases of suites with this trait that run at once.
    static let slots = Slots(6)

    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> OwnThread? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await Self.slots.acquire()
        defer { Self.slots.release() }
        let executor = ThreadExecutor(name: test.name)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }

    /// A counting semaphore whose waiters suspend instead of blocking a thread.
    final class Slots: @unchecked Sendable {
        private let lock = NSLock()
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        func acquire() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                lock.lock()
                if free > 0 {
                    free -= 1
                    lock.unlock()
                    waiter.resume()
                } else {
                    waiting.append(waiter)
                    lock.unlock()
                }
            }
        }

        func release() {
            lock.lock()
            if waiting.isEmpty {
                free += 1
                lock.unlock()
            } else {
                let next = waiting.removeFirst()
                lock.unlock()
                next.resume()
            }
        }
    }

    /// One thread that runs the jobs of the tasks that prefer it, in order, until finished.
    final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []
        private var finished = false

        init(name: String) {
            let thread = Thread { [self] in runJobs() }
            thread.name = "test: \(name)"
            thread.stackSize = 8 << 20
            thread.start()
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        /// The thread ends once the jobs enqueued so far have run.
        func finish() {
            condition.lock()
            finished = true
            condition.signal()
            condition.unlock()
        }

        private func runJobs() {
            while true {
                condition.lock()
                while jobs.isEmpty && !finished { condition.wait() }
                if jobs.isEmpty {
                    condition.unlock()
                    return
                }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}

extension Trait where Self == OwnThread {
    /// Each test case on a thread of its own (see `OwnThread`): for tests that block while they wait.
    static var ownThread: Self { OwnThread() }
}
