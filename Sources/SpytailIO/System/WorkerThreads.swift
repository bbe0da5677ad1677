import Glibc

/// Long-running threads for CPU-bound work (one per core), started with pthread_create and joined
/// explicitly: no pool that could starve or grow behind our back.
public final class WorkerThreads {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private var threads: [pthread_t] = []

    /// Starts `count` threads; thread `i` runs `body(i)`. `niceIncrement`: each thread first lowers its own
    /// priority by that many nice levels (Linux keeps a nice value per thread), so that threads which feed it
    /// keep their core when more threads than cores are busy.
    public init(count: Int, niceIncrement: Int32 = 0, _ body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            let context = Unmanaged.passRetained(Body {
                if niceIncrement > 0 { Self.lowerPriority(by: niceIncrement) }
                body(index)
            }).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
            precondition(rc == 0, "pthread_create failed: \(rc)")
            threads.append(thread)
        }
    }

    /// Waits for every thread to return.
    public func join() {
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    /// Lets every thread finish on its own; its resources go when it returns.
    public func detach() {
        for thread in threads { pthread_detach(thread) }
        threads.removeAll()
    }

    /// Lowers the calling thread's priority by `increment` nice levels (at most to 19). On Linux `setpriority`
    /// with `PRIO_PROCESS` and 0 applies to the calling thread only. A refusal changes nothing but the share.
    private static func lowerPriority(by increment: Int32) {
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + increment))
    }

    /// Cores this process may run on.
    public static var availableCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
