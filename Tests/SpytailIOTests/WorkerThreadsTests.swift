import Glibc
import Synchronization
import Testing
@testable import SpytailIO

/// Worker threads lower their own priority, not the process's: the thread that feeds them keeps its share.
struct WorkerThreadsTests {
    @Test func eachThreadRunsTheGivenNiceLevelsBelowTheThreadThatStartedIt() {
        errno = 0
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(errno == 0)
        let seen = Mutex<[Int32]>([])
        let threads = WorkerThreads(count: 2, niceIncrement: 3) { _ in
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.withLock { $0.append(nice) }
        }
        threads.join()
        #expect(seen.withLock { $0 } == [min(19, own + 3), min(19, own + 3)])
        // The starting thread is left as it was.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own)
    }

    @Test func withoutAnIncrementTheThreadsKeepTheStartingThreadsPriority() {
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let seen = Mutex<Int32?>(nil)
        let threads = WorkerThreads(count: 1) { _ in seen.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } }
        threads.join()
        #expect(seen.withLock { $0 } == own)
    }
}
