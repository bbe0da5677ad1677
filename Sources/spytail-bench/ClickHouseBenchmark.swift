import Glibc
import SpytailCore

/// The clickhouse output against the server's own bound, in the same run: `spytail run` catching up W1
/// into a table (from its start until `count()` holds every record), and `clickhouse-client` inserting the
/// very same rows (read back from that table as JSONEachRow) from a file into a second table. A private
/// clickhouse-server (Debian's) is started on free loopback ports for the duration.
struct ClickHouseBenchmark {
    static let server = "/usr/sbin/clickhouse-server", client = "/usr/bin/clickhouse-client"
    static var installed: Bool { access(server, X_OK) == 0 && access(client, X_OK) == 0 }

    let workdir: String
    let httpPort: Int
    let tcpPort: Int
    private var pid: pid_t = 0

    init(workdir: String) {
        self.workdir = workdir + "/clickhouse"
        httpPort = Self.freePort()
        tcpPort = Self.freePort()
    }

    /// Starts the server with an empty data folder; false when it does not answer within 30 s.
    mutating func start() -> Bool {
        _ = Runner.run(["/bin/rm", "-rf", workdir])
        mkdir(workdir, 0o755)
        writeFile("\(workdir)/config.xml", """
            <?xml version="1.0"?>
            <yandex>
              <logger><level>warning</level><log>\(workdir)/server.log</log><errorlog>\(workdir)/error.log</errorlog><console>0</console></logger>
              <http_port>\(httpPort)</http_port><tcp_port>\(tcpPort)</tcp_port><listen_host>127.0.0.1</listen_host>
              <path>\(workdir)/data/</path><tmp_path>\(workdir)/tmp/</tmp_path><user_files_path>\(workdir)/user_files/</user_files_path>
              <format_schema_path>\(workdir)/format_schemas/</format_schema_path>
              <users_config>\(workdir)/users.xml</users_config><default_profile>default</default_profile>
              <default_database>default</default_database><mark_cache_size>5368709</mark_cache_size>
            </yandex>
            """)
        writeFile("\(workdir)/users.xml", """
            <?xml version="1.0"?>
            <yandex><profiles><default></default></profiles>
              <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
              <quotas><default></default></quotas></yandex>
            """)
        pid = RunCatchUp.spawn([Self.server, "--config-file=\(workdir)/config.xml"], stderr: "/dev/null")
        let start = Runner.now()
        while Runner.now() - start < 30 {
            if query("SELECT 1") == "1" { return true }
            usleep(100_000)
        }
        return false
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// The answer to `sql` (through clickhouse-client), trimmed; nil on failure.
    func query(_ sql: String, into file: String? = nil) -> String? {
        let out = file ?? "\(workdir)/query.out"
        let m = Runner.run([Self.client, "--port", "\(tcpPort)", "--query", sql], stdout: out)
        guard m.status == 0 else { return nil }
        if file != nil { return "" }
        return readFile(out).map { String($0.split(separator: "\n").first ?? "") }
    }

    /// The bench's config with one clickhouse output to `table`.
    func config(for workload: Workload, table: String, checkpoints: String, batchMaxRecords: Int, insertFormat: String) -> String {
        let output = #"{ "type": "clickhouse", "url": "http://127.0.0.1:\#(httpPort)", "table": "\#(table)", "createTable": true, "batchMaxRecords": \#(batchMaxRecords), "insertFormat": "\#(insertFormat)" }"#
        return RunCatchUp.config(for: workload, output: "unused", checkpoints: checkpoints, outputs: output)
    }

    /// `run` from its first start until the table holds `expected` rows (or `limit` seconds).
    func measureRun(spytail: String, config: String, checkpoints: String, table: String, expected: Int, limit: Double = 300) -> Measurement {
        unlink(checkpoints)
        _ = query("DROP TABLE IF EXISTS \(table)")
        let start = Runner.now()
        let pid = RunCatchUp.spawn([spytail, "run", "--config", config], stderr: "\(workdir)/run.stderr")
        var rows = 0
        // Polled over HTTP with curl every 50 ms (clickhouse-client costs a core for ~50 ms per start).
        let countURL = "http://127.0.0.1:\(httpPort)/?query=SELECT%20count()%20FROM%20\(table)"
        while rows < expected && Runner.now() - start < limit {
            usleep(50_000)
            _ = Runner.run(["/usr/bin/curl", "-s", countURL], stdout: "\(workdir)/count.out")
            rows = readFile("\(workdir)/count.out").flatMap { Int($0.split(separator: "\n").first ?? "") } ?? 0
        }
        let wall = Runner.now() - start
        let cpu = RunBenchmark.cpuSeconds(pid), rss = RunCatchUp.peakRSSKB(pid)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Measurement(wall: wall, cpu: cpu, peakRSSKB: rss, status: rows == expected ? 0 : 124)
    }

    /// `clickhouse-client` inserting `rows` (a JSONEachRow file) into a fresh `table`: the server's own bound;
    /// with `blockRows`, the client cuts the insert into parts of that many rows (as spytail's batches are).
    func measureClient(rows: String, table: String, blockRows: Int? = nil) -> Measurement {
        _ = query("DROP TABLE IF EXISTS \(table)")
        _ = query(ClickHouseTable.createStatement(database: "default", table: table))
        let block = blockRows.map { ["--max_insert_block_size", "\($0)"] } ?? []
        return Runner.run([Self.client, "--port", "\(tcpPort)"] + block + ["--query", "INSERT INTO \(table) FORMAT JSONEachRow"], stdin: rows)
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
