import Glibc

/// Turns SIGTERM, SIGINT, SIGHUP and SIGUSR1 into values for the run loop: the signals are blocked in
/// every thread (call `blockSignals()` before starting any) and a thread of its own takes them with
/// sigwait, so no handler ever runs in the middle of other code.
public final class SignalListener: @unchecked Sendable {
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]
    private var thread: WorkerThreads?

    /// Blocks the handled signals in the calling thread and every thread it starts later.
    public static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread; `deliver` runs on it for every signal.
    public init(deliver: @escaping @Sendable (Int32) -> Void) {
        thread = WorkerThreads(count: 1) { _ in
            var set = SignalListener.signalSet()
            while true {
                var signal: Int32 = 0
                if sigwait(&set, &signal) == 0 { deliver(signal) }
            }
        }
    }

    static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }
}
