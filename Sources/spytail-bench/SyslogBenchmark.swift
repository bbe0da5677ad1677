import Glibc

/// The syslog output into a private rsyslogd (Debian's, imrelp and imtcp writing every message to a file):
/// `spytail run` catching up W1 from its first start until rsyslog's file holds every record, over RELP
/// and over TCP, in the same run.
struct SyslogBenchmark {
    static let rsyslogd = "/usr/sbin/rsyslogd"
    static var installed: Bool { access(rsyslogd, X_OK) == 0 && access("/usr/lib/x86_64-linux-gnu/rsyslog/imrelp.so", R_OK) == 0 }

    let workdir: String
    let output: String
    let relpPort = ClickHouseBenchmark.freePort()
    let tcpPort = ClickHouseBenchmark.freePort()
    private var pid: pid_t = 0

    init(workdir: String, outdir: String) {
        self.workdir = workdir + "/rsyslog"
        output = outdir + "/rsyslog.out"
    }

    mutating func start() -> Bool {
        _ = Runner.run(["/bin/rm", "-rf", workdir])
        mkdir(workdir, 0o755)
        mkdir(workdir + "/work", 0o755)
        unlink(output)
        writeFile("\(workdir)/rsyslog.conf", """
            global(workDirectory="\(workdir)/work" maxMessageSize="64k")
            module(load="imrelp")
            module(load="imtcp")
            input(type="imrelp" port="\(relpPort)" address="127.0.0.1")
            input(type="imtcp" port="\(tcpPort)" address="127.0.0.1")
            template(name="line" type="string" string="%msg%\\n")
            *.* action(type="omfile" file="\(output)" template="line")
            """)
        pid = RunCatchUp.spawn([Self.rsyslogd, "-n", "-f", "\(workdir)/rsyslog.conf", "-i", "\(workdir)/pid"], stderr: "\(workdir)/stderr")
        usleep(500_000)
        return kill(pid, 0) == 0
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// `run` over W1 into `transport` until rsyslog's file has grown by `expected` lines (or `limit` s).
    func measureRun(spytail: String, workload: Workload, transport: String, expected: Int, limit: Double = 300) -> Measurement {
        let checkpoints = "\(workdir)/checkpoints.json", config = "\(workdir)/bench-\(transport).json"
        unlink(checkpoints)
        let port = transport == "relp" ? relpPort : tcpPort
        let out = #"{ "type": "syslog", "address": "127.0.0.1:\#(port)", "protocol": "\#(transport)" }"#
        writeFile(config, RunCatchUp.config(for: workload, output: "unused", checkpoints: checkpoints, outputs: out))
        var counter = GrowingLineCounter(path: output)
        let before = counter.count()
        let start = Runner.now()
        let run = RunCatchUp.spawn([spytail, "run", "--config", config], stderr: "\(workdir)/run-\(transport).stderr")
        var lines = 0
        while lines < expected && Runner.now() - start < limit {
            usleep(20_000)
            lines = counter.count() - before
        }
        let wall = Runner.now() - start
        let cpu = RunBenchmark.cpuSeconds(run), rss = RunCatchUp.peakRSSKB(run)
        kill(run, SIGTERM)
        var status: Int32 = 0
        while waitpid(run, &status, 0) < 0 && errno == EINTR {}
        return Measurement(wall: wall, cpu: cpu, peakRSSKB: rss, status: lines >= expected ? 0 : 124)
    }
}

/// Counts the lines of a file that only grows, reading only what was added since the last call.
struct GrowingLineCounter {
    let path: String
    private var offset: off_t = 0
    private var lines = 0

    init(path: String) { self.path = path }

    mutating func count() -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return lines }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            offset += off_t(n)
            for i in 0..<n where buffer[i] == 0x0A { lines += 1 }
        }
        return lines
    }
}
