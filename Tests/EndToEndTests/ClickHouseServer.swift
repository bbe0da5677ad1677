import Foundation
import SpytailTestSupport

/// A real ClickHouse server (Debian's `clickhouse-server`) in a temporary folder on free loopback ports,
/// with query logging on (to read back each insert's row count), a user `spy` with a password, and the
/// data kept across `kill()` and `start()` (as a crashed and restarted server). With `tls`, it answers HTTPS too
/// (on `httpsPort`) with that certificate and key.
final class ClickHouseServer {
    static let binary = "/usr/sbin/clickhouse-server"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: binary) }
    static let password = "spy-secret-0123"

    let directory: TemporaryDirectory
    let httpPort: Int
    let tcpPort: Int
    let httpsPort: Int
    private var pid: Int32 = 0

    init(in directory: TemporaryDirectory, tls: TestAuthority.ServerFiles? = nil) throws {
        self.directory = directory
        httpPort = try PrometheusScrapeTests.freePort()
        tcpPort = try PrometheusScrapeTests.freePort()
        httpsPort = tls == nil ? 0 : try PrometheusScrapeTests.freePort()
        let https = tls.map { files in
            """
              <https_port>\(httpsPort)</https_port>
              <openSSL><server>
                <certificateFile>\(files.certificate)</certificateFile><privateKeyFile>\(files.key)</privateKeyFile>
                <verificationMode>none</verificationMode><loadDefaultCAFile>false</loadDefaultCAFile>
                <cacheSessions>true</cacheSessions><disableProtocols>sslv2,sslv3</disableProtocols>
              </server></openSSL>
            """
        } ?? ""
        let root = directory.file("clickhouse")
        try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
        try """
            <?xml version="1.0"?>
            <yandex>
              <logger><level>warning</level><log>\(root)/server.log</log><errorlog>\(root)/error.log</errorlog><console>0</console></logger>
              <http_port>\(httpPort)</http_port>
              <tcp_port>\(tcpPort)</tcp_port>
            \(https)
              <listen_host>127.0.0.1</listen_host>
              <macros><spytail_folder>\(root)</spytail_folder></macros>
              <path>\(root)/data/</path>
              <tmp_path>\(root)/tmp/</tmp_path>
              <user_files_path>\(root)/user_files/</user_files_path>
              <format_schema_path>\(root)/format_schemas/</format_schema_path>
              <users_config>\(root)/users.xml</users_config>
              <default_profile>default</default_profile>
              <default_database>default</default_database>
              <mark_cache_size>5368709</mark_cache_size>
              <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>
            </yandex>
            """.write(toFile: root + "/config.xml", atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0"?>
            <yandex>
              <profiles><default><log_queries>1</log_queries></default></profiles>
              <users>
                <default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default>
                <spy><password>\(Self.password)</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></spy>
              </users>
              <quotas><default></default></quotas>
            </yandex>
            """.write(toFile: root + "/users.xml", atomically: true, encoding: .utf8)
        try start()
    }

    var url: String { "http://127.0.0.1:\(httpPort)" }
    var httpsURL: String { "https://127.0.0.1:\(httpsPort)" }

    /// Starts `argv` as a daemon (new session, no descriptor of this process, stdout to /dev/null) through
    /// Python's `subprocess` and returns its pid. Not through Foundation's `Process`: a child that closes
    /// what it inherits (clickhouse-server does) makes `Process` take the closed monitoring socket for an
    /// exit and block in `waitpid`, and a grandchild that keeps it open keeps `waitUntilExit` waiting.
    static func daemon(_ argv: [String], stderr: String) throws -> Int32 {
        let script = """
            import subprocess, sys
            with open(sys.argv[1], "ab") as err:
                p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                     close_fds=True, start_new_session=True)
            print(p.pid)
            """
        let launch = try Harness.run("/usr/bin/python3", ["-c", script, stderr] + argv)
        return Int32(launch.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Starts the server and waits (up to 30 s) until it answers `/ping`.
    func start() throws {
        pid = try Self.daemon([Self.binary, "--config-file=\(directory.file("clickhouse/config.xml"))"], stderr: "/dev/null")
        guard pid > 0, Waiting.until(30, { (try? Harness.run("/usr/bin/curl", ["-sf", "--max-time", "1", "\(url)/ping"]))?.status == 0 }) else {
            throw ServerError.notAnswering(log: (try? String(contentsOfFile: directory.file("clickhouse/error.log"), encoding: .utf8)) ?? "")
        }
        // The server that answers is this one (the folder in its config's macros), not another's on the same port.
        let folder = query("SELECT substitution FROM system.macros WHERE macro = 'spytail_folder' FORMAT TSV")
        guard folder == directory.file("clickhouse") else {
            throw ServerError.notAnswering(log: "another server answers on port \(httpPort) (its folder: \(folder ?? "not said"))")
        }
    }

    /// SIGKILL, as a crash: nothing flushed, nothing said.
    func kill() { end(SIGKILL) }

    /// Sends `signal` and waits (up to 30 s) until the process is gone (it is not our child: the shell was).
    private func end(_ signal: Int32) {
        guard pid > 0 else { return }
        Foundation.kill(pid, signal)
        let gone = Waiting.until(30) { Self.isGone(pid) }
        if !gone { Foundation.kill(pid, SIGKILL) }
        pid = 0
    }

    /// Runs `sql` as the default user; the answer's text (TSV), or nil when the server did not answer 200.
    func query(_ sql: String) -> String? {
        guard let result = try? Harness.run("/usr/bin/curl", ["-sf", "--max-time", "30", "--data-binary", sql, "\(url)/"]),
              result.status == 0 else { return nil }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The row counts of the inserts into `table` that finished, from the query log.
    func insertSizes(_ table: String) -> [Int] {
        _ = query("SYSTEM FLUSH LOGS")
        let text = query("SELECT written_rows FROM system.query_log WHERE type = 2 AND query LIKE 'INSERT INTO `default`.`\(table)`%' FORMAT TSV") ?? ""
        return text.split(separator: "\n").compactMap { Int($0) }
    }

    /// No such process, or a zombie nobody reaped yet (its parent, the shell, is gone).
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    enum ServerError: Error { case notAnswering(log: String) }

    deinit { kill() }
}
