import Glibc

/// Long-running threads for CPU-bound work (one per core), started with pthread_create and joined
/// explicitly: no pool that could starve or grow behind our back.
public final class WorkerThreads {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private var threads: [pthread_t] = []

    /// Starts `count` threads; thread `i` runs `body(i)`.
    public init(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            let context = Unmanaged.passRetained(Body { body(index) }).toOpaque()
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

    /// Cores this process may run on.
    public static var availableCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
