import Foundation
import SpytailTestSupport

/// A real rsyslog (Debian's `rsyslogd` with `rsyslog-relp`) in a temporary folder, listening on free
/// loopback ports with imrelp, imtcp and imudp, writing every message it gets as one line to `out.log`:
/// `INPUT APP FACILITY.SEVERITY TIMEREPORTED SD=%structured-data% MSG=%msg%` (control characters escaped
/// by rsyslog: a newline is `#012`). Stopped gracefully or killed, and started again on the same ports.
final class RsyslogServer {
    static let binary = "/usr/sbin/rsyslogd"
    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: binary) && FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/rsyslog/imrelp.so")
    }

    let directory: TemporaryDirectory
    let relpPort: Int, tcpPort: Int, udpPort: Int
    private var pid: Int32 = 0
    private var starts = 0

    init(in directory: TemporaryDirectory) throws {
        self.directory = directory
        relpPort = try PrometheusScrapeTests.freePort()
        tcpPort = try PrometheusScrapeTests.freePort()
        udpPort = try PrometheusScrapeTests.freePort()
        let root = directory.file("rsyslog")
        try FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
        try """
            global(workDirectory="\(root)/work" maxMessageSize="64k")
            module(load="imrelp")
            module(load="imtcp")
            module(load="imudp")
            input(type="imrelp" port="\(relpPort)" address="127.0.0.1")
            input(type="imtcp" port="\(tcpPort)" address="127.0.0.1")
            input(type="imudp" port="\(udpPort)" address="127.0.0.1")
            template(name="line" type="string"
                     string="%inputname% %app-name% %syslogfacility-text%.%syslogseverity-text% %timereported:::date-rfc3339% SD=%structured-data% MSG=%msg%\\n")
            *.* action(type="omfile" file="\(root)/out.log" template="line")
            """.write(toFile: root + "/rsyslog.conf", atomically: true, encoding: .utf8)
        try start()
    }

    var output: String { directory.file("rsyslog/out.log") }
    var lines: [String] { TextLines.ofFile(output) }

    /// Starts rsyslogd in the foreground of a detached shell and waits until its RELP port takes connections.
    func start() throws {
        // A stopped rsyslog's pid may live on as a zombie nobody reaps here, which rsyslog would take for a
        // running instance: each start writes a pidfile of its own.
        starts += 1
        pid = try ClickHouseServer.daemon([Self.binary, "-n", "-f", directory.file("rsyslog/rsyslog.conf"), "-i", directory.file("rsyslog/pid.\(starts)")],
                                          stderr: directory.file("rsyslog/stderr"))
        let port = relpPort
        guard pid > 0, Waiting.until(20, { (try? Harness.run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]))?.status == 0 }) else {
            throw ServerError.notAnswering((try? String(contentsOfFile: directory.file("rsyslog/stderr"), encoding: .utf8)) ?? "")
        }
    }

    /// SIGTERM: rsyslog writes what it queued, then exits (waited for, up to 30 s).
    func stop() { end(SIGTERM) }

    /// SIGKILL, as a crash.
    func kill() { end(SIGKILL) }

    private func end(_ signal: Int32) {
        guard pid > 0 else { return }
        Foundation.kill(pid, signal)
        if !Waiting.until(30, { ClickHouseServer.isGone(pid) }) { Foundation.kill(pid, SIGKILL) }
        pid = 0
    }

    enum ServerError: Error { case notAnswering(String) }

    deinit { kill() }
}
