import Glibc

/// Waiting on a condition with a deadline, never a fixed sleep: tests that watch another thread or
/// process look every `interval` until the condition holds or `seconds` pass.
public enum Waiting {
    /// Whether `condition` held within `seconds` (looked at every `interval` seconds, and once at the end).
    public static func until(_ seconds: Double, every interval: Double = 0.02, _ condition: () -> Bool) -> Bool {
        let deadline = now() + seconds
        while now() < deadline {
            if condition() { return true }
            usleep(UInt32(interval * 1_000_000))
        }
        return condition()
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
