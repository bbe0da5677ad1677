import Glibc
import Testing
@testable import SpytailIO

/// The coalescing wake-up between threads: many signals wake one wait, nothing piles up, a wait without a
/// signal times out.
struct WakeupTests {
    @Test func signalsBeforeAWaitCoalesceIntoOne() {
        let wakeup = Wakeup()
        for _ in 0..<1000 { wakeup.signal() }
        #expect(wakeup.wait(timeout: .zero))
        #expect(!wakeup.wait(timeout: .milliseconds(1)), "a thousand signals wake one wait, not a thousand")
    }

    @Test func aSignalFromAnotherThreadWakesAWaiter() {
        let wakeup = Wakeup()
        let started = Wakeup()
        let thread = WorkerThreads(count: 1) { _ in
            started.signal()
            wakeup.signal()
        }
        #expect(started.wait(timeout: .seconds(30)))
        #expect(wakeup.wait(timeout: .seconds(30)), "woken by the other thread's signal, not by the deadline")
        thread.join()
    }
}
