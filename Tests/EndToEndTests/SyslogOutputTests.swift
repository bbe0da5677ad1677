import Foundation
import Testing
import SpytailTestSupport

/// `run` shipping to a real rsyslog (Debian's, with imrelp from `rsyslog-relp`, imtcp and imudp, started
/// here on loopback ports): RFC 5424 messages whose structured data rsyslog parses back; over RELP no
/// line is missing through an rsyslog restart and a spytail SIGKILL; over TCP the loss when rsyslog is
/// killed is measured (the window the README's guarantees table states).
@Suite(.ownThread, .serialized)
struct SyslogOutputTests {
    static func config(_ output: String) -> String {
        #"""
        {"sources": [{"name": "app", "include": ["logs/app.log"]}], "checkpoints": "state/checkpoints.json",
         "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$", "multiline": {"continuation": "^\\s"},
                   "categories": [{"name": "error", "display": "E", "match": {"field": "level", "prefix": "ERROR"}},
                                  {"name": "info", "display": "I", "default": true}],
                   "tags": [{"name": "db", "match": {"contains": "db"}}]},
         "outputs": [\#(output)]}
        """#
    }

    static func prepare() throws -> (TemporaryDirectory, RsyslogServer)? {
        #expect(RsyslogServer.installed, "Debian's rsyslog and rsyslog-relp are missing: scripts/install-deps installs them")
        guard RsyslogServer.installed else { return nil }
        let dir = try RunTools.workspace()
        dir.write("logs/app.log", "")
        return (dir, try RsyslogServer(in: dir))
    }

    /// How often each `seq=N` arrived (over `input`).
    static func sequences(_ server: RsyslogServer, input: String) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for line in server.lines where line.hasPrefix(input + " ") {
            guard let range = line.range(of: "seq=") else { continue }
            if let n = Int(line[range.upperBound...].prefix { $0.isNumber }) { counts[n, default: 0] += 1 }
        }
        return counts
    }

    @Test func structuredDataSeverityTimestampAndContinuationLinesReachRsyslogOverEveryProtocol() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let outputs = [
            #"{"type": "syslog", "address": "127.0.0.1:\#(server.relpPort)", "protocol": "relp", "facility": "local3", "severity": {"error": "err", "default": "notice"}}"#,
            #"{"type": "syslog", "address": "127.0.0.1:\#(server.tcpPort)", "protocol": "tcp", "appName": "spy-tcp"}"#,
            #"{"type": "syslog", "address": "127.0.0.1:\#(server.udpPort)", "protocol": "udp", "appName": "spy-udp"}"#,
        ]
        let config = dir.write("spytail.json", Self.config(outputs.joined(separator: ", ")))
        let spytail = try RunningSpytail(config: config, in: dir)
        try RunToolsOutput.append(dir.file("logs/app.log"),
                                  "2026-11-20T10:00:01.25Z ERROR db said \"no\" ] \\ done\n\tat frame 2\n2026-11-20T10:00:02Z INFO plain\n")
        #expect(RunTools.waitUntil { server.lines.count == 6 }, "\(server.lines)\n\(spytail.stderr)")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
        let lines = server.lines
        let relpError = lines.first { $0.hasPrefix("imrelp ") && $0.contains("category=\"error\"") } ?? ""
        // rsyslog parsed the structured data itself (%structured-data%), with our escapes intact.
        #expect(relpError.hasPrefix("imrelp spytail local3.err 2026-11-20T10:00:01.250000Z SD=[spytail@32473 id=\""), "\(relpError)")
        #expect(relpError.contains(#"category="error" tags="db" path=""#) && relpError.contains(#"offset="0" level="ERROR"]"#), "\(relpError)")
        // The continuation line stays in the message (rsyslog shows the newline as #012).
        #expect(relpError.hasSuffix(#"MSG=db said "no" ] \ done#012#011at frame 2"#), "\(relpError)")
        #expect(lines.contains { $0.hasPrefix("imrelp spytail local3.notice 2026-11-20T10:00:02") && $0.hasSuffix("MSG=plain") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("imtcp spy-tcp local0.info ") }.count == 2, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("imudp spy-udp local0.info ") }.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("imtcp") && $0.hasSuffix(#"MSG=db said "no" ] \ done#012#011at frame 2"#) }, "\(lines)")
    }

    @Test func relpLosesNothingThroughAnRsyslogRestartAndASpytailSIGKILL() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(
            #"{"type": "syslog", "address": "127.0.0.1:\#(server.relpPort)", "protocol": "relp", "batchMaxRecords": 500, "batchMaxMs": 50}"#))
        let log = dir.file("logs/app.log")
        var spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")
        let total = 20_000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 4000, in: dir)
        func arrived(_ n: Int) -> Bool { RunTools.waitUntil(30) { Self.sequences(server, input: "imrelp")[n] != nil || !writer.isRunning } }
        #expect(arrived(5_000))
        server.stop()  // a restart of rsyslog mid-stream
        try server.start()
        #expect(arrived(12_000))
        spytail.killHard()  // and of spytail, without warning
        spytail = try RunningSpytail(config: config, in: dir)
        writer.waitUntilExit()
        #expect(RunTools.waitUntil(60) { Self.sequences(server, input: "imrelp").count == total },
                "\(Self.sequences(server, input: "imrelp").count) of \(total)\n\(spytail.stderr.suffix(2000))")
        let counts = Self.sequences(server, input: "imrelp")
        let missing = (1...total).filter { counts[$0] == nil }
        let twice = counts.values.filter { $0 > 1 }.count
        print("syslog relp: \(total) lines, \(missing.count) missing, \(twice) delivered twice (re-sent after the restarts)")
        #expect(missing.isEmpty, "missing \(missing.prefix(20))")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }

    @Test func tcpLossWhenRsyslogIsKilledIsMeasuredAndDeliveryResumes() throws {
        guard let (dir, server) = try Self.prepare() else { return }
        defer { server.kill(); dir.remove() }
        let config = dir.write("spytail.json", Self.config(
            #"{"type": "syslog", "address": "127.0.0.1:\#(server.tcpPort)", "protocol": "tcp", "batchMaxRecords": 500, "batchMaxMs": 50}"#))
        let log = dir.file("logs/app.log")
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil { spytail.stderr.contains("following from offset 0") }, "\(spytail.stderr)")
        let total = 20_000
        let writer = try RunTools.startWriter(log, first: 1, count: total, rate: 4000, in: dir)
        #expect(RunTools.waitUntil(30) { Self.sequences(server, input: "imtcp")[5_000] != nil }, "\(spytail.stderr)")
        server.kill()  // a crash: what sat in the socket buffers and rsyslog's queue is gone
        try server.start()
        writer.waitUntilExit()
        #expect(RunTools.waitUntil(60) { Self.sequences(server, input: "imtcp")[total] != nil }, "\(spytail.stderr.suffix(2000))")
        let counts = Self.sequences(server, input: "imtcp")
        let missing = (1...total).filter { counts[$0] == nil }
        print("syslog tcp: rsyslog killed at 4,000 lines/s: \(missing.count) of \(total) lines lost "
              + "(\(missing.first.map { "seq \($0)…\(missing.last!)" } ?? "none"))")
        // What was lost is one window around the crash; everything written after the restart is there.
        #expect(missing.allSatisfy { $0 < 15_000 }, "lost after the restart: \(missing.filter { $0 >= 15_000 }.prefix(20))")
        #expect(spytail.stderr.contains("retrying with backoff") || missing.isEmpty, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0, "\(spytail.stderr)")
    }
}
