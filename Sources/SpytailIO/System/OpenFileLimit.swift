import Glibc

/// The descriptors this process may open (RLIMIT_NOFILE). `run` keeps up to `tail.maxOpenFiles` files open
/// (1,024 by default), and the soft limit is often 1,024 too (systemd's default, many shells'): so the soft
/// limit is raised to the hard one the first time it is asked, as daemons do, and `run` fits its file budget
/// under what it got (`DescriptorBudget.fileLimit`).
public enum OpenFileLimit {
    /// The soft limit, raised to the hard limit once per process (left as it was when the raise is refused).
    public static let descriptors: Int = raiseToHard()

    private static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(Int32.max) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY, or more than anyone opens.
        return limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }
}
