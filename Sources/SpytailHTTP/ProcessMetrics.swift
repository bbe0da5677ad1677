import Glibc

/// The standard `process_*` figures of this process, from /proc/self (as the Prometheus client libraries of
/// other languages give them).
struct ProcessMetrics {
    var residentBytes: Double = 0
    var virtualBytes: Double = 0
    var cpuSeconds: Double = 0
    var openFDs: Double = 0
    var maxFDs: Double = 0
    var startTimeSeconds: Double = 0

    static func read() -> ProcessMetrics {
        var m = ProcessMetrics()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK))), page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = readSmallFile("/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the command: state is field 3, so field N is fields[N - 3].
            if fields.count > 21 {
                m.cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
                m.virtualBytes = Double(fields[20]) ?? 0
                m.residentBytes = (Double(fields[21]) ?? 0) * page
                m.startTimeSeconds = bootTime() + (Double(fields[19]) ?? 0) / ticks
            }
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { m.maxFDs = Double(limit.rlim_cur) }
        if let dir = opendir("/proc/self/fd") {
            var count = -1  // the descriptor opendir holds
            while let entry = readdir(dir) {
                if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
            }
            closedir(dir)
            m.openFDs = Double(max(0, count))
        }
        return m
    }

    static func bootTime() -> Double {
        guard let stat = readSmallFile("/proc/stat"),
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }) else { return 0 }
        return Double(line.dropFirst("btime ".count)) ?? 0
    }

    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16384)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: bytes[..<n], as: UTF8.self) : nil
    }
}
