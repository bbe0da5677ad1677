import Foundation
import Testing
import SpytailTestSupport

/// Structured logs from real writers, read by the real binary: Python's `logging` with a JSON formatter
/// rotated by `TimedRotatingFileHandler`, and nginx serving real requests into a JSON (`escape=json`) and a
/// `combined` access log rotated by the real logrotate with `nginx -s reopen`, beside a plain-text app log.
@Suite(.ownThread)
struct StructuredWritersTests {
    /// JSON records `seq=1…count` (every 7th an error with an HTTP status of 503 and a traceback), rotated
    /// by the handler every 150 records on a moved clock, at `rate` records a second.
    static let pythonWriter = #"""
        import json, logging, logging.handlers, sys, time
        path, count, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
        clock = [time.time()]
        time.time = lambda: clock[0]
        class JSONFormatter(logging.Formatter):
            def format(self, record):
                out = {"asctime": self.formatTime(record), "levelname": record.levelname, "name": record.name,
                       "message": record.getMessage(), "http": {"status": record.status, "path": "/p/%d" % record.seq},
                       "ok": record.status < 500, "user": None}
                if record.exc_info:
                    out["exc_info"] = self.formatException(record.exc_info)
                return json.dumps(out, ensure_ascii=False)
        handler = logging.handlers.TimedRotatingFileHandler(path, when="S", backupCount=0, utc=True)
        handler.setFormatter(JSONFormatter())
        log = logging.getLogger("app")
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        start = time.monotonic()
        for i in range(1, count + 1):
            if i % 7 == 0:
                try:
                    raise ValueError("bad \"input\" ✈ %d" % i)
                except ValueError:
                    log.exception("seq=%d failed", i, extra={"status": 503, "seq": i})
            else:
                log.info("seq=%d served", i, extra={"status": 200, "seq": i})
            clock[0] += 1 / 150.0
            if rate > 0:
                delay = start + i / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        handler.close()
        """#

    @Test func pythonJSONLogsRotatedByTheirHandlerAreReadWithTypesLevelsAndTimes() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "py", "include": ["logs/app.log"], "parser": "python"}], "checkpoints": "state/cp.json",
             "parsers": {"python": {"format": "json", "timestampFormat": "%Y-%m-%d %H:%M:%S,%f"}},
             "parse": {"categories": [{"name": "error", "match": {"field": "levelname", "in": ["ERROR", "CRITICAL"]}},
                                      {"name": "info", "default": true}]},
             "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"},
                         {"type": "file", "path": "errors.jsonl", "format": "jsonl", "where": {"field": "http.status", "gte": 500}}]}
            """#)
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(10) { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) }, "\(spytail.stderr)")
        let count = 1500
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", dir.write("writer.py", Self.pythonWriter), dir.file("logs/app.log"), "\(count)", "1000"]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let rotated = try FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).filter { $0 != "app.log" }
        #expect(rotated.count >= 5, "the handler rotated: \(rotated.sorted().prefix(3))")
        let out = RunToolsOutput(path: dir.file("out.jsonl"))
        #expect(Waiting.until(30, every: 0.1) { out.linesOnDisk >= count }, "\(out.linesOnDisk) of \(count): \(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        let records = out.records
        let seqs = records.compactMap { ($0["message"] as? String).flatMap(RunTools.seq) }
        #expect(seqs.count == count && Set(seqs).count == count, "every record once: \(seqs.count) records, \(Set(seqs).count) distinct")
        #expect(records.allSatisfy { $0["parseError"] == nil })
        for record in records {
            let seq = RunTools.seq(in: record["message"] as? String ?? "") ?? 0
            let fields = record["fields"] as? [String: Any] ?? [:]
            #expect(record["category"] as? String == (seq % 7 == 0 ? "error" : "info"), "\(record)")
            #expect((fields["http"] as? [String: Any])?["status"] as? Int == (seq % 7 == 0 ? 503 : 200))
            #expect(fields["ok"] as? Bool == (seq % 7 != 0))
            #expect(fields.keys.contains("user") && fields["user"] is NSNull)
            if seq % 7 == 0 { #expect((fields["exc_info"] as? String)?.contains("ValueError: bad \"input\" ✈") == true) }
        }
        let errors = RunToolsOutput(path: dir.file("errors.jsonl")).records
        #expect(errors.count == count / 7)
        // The handler's asctime is read with the parser's strptime format: --since keeps the later records only.
        let scan = try Harness.spytail(["scan", "-c", config, "--format", "jsonl", "-o", "-", "--since", "2000-01-01T00:00:00Z"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdoutLines.count == count, "every record has a time after 2000: \(scan.stderr)")
        let future = try Harness.spytail(["scan", "-c", config, "--format", "jsonl", "-o", "-", "--since", "2100-01-01T00:00:00Z"])
        #expect(future.stdoutLines.isEmpty, "and none after 2100")
    }
}

/// nginx (Debian's nginx-light) on loopback writing a JSON access log (`escape=json`, typed status, bytes and
/// request time) and the default `combined` log, rotated by the real logrotate with `nginx -s reopen`, and a
/// plain-text app log beside them. One config reads all three: categories from each format's level or status,
/// one output file per source (`{source}`), one output keeping `http.status` / `status` >= 500 across sources.
@Suite(.ownThread)
struct NginxAccessLogTests {
    static let nginx = "/usr/sbin/nginx"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: nginx), "needs Debian's nginx-light"))
    func jsonAndCombinedAccessLogsRotatedByLogrotateAreReadPerSourceAndRouted() throws {
        let dir = try RunTools.workspace(["logs", "state", "out", "nginx"])
        defer { dir.remove() }
        let port = try PrometheusScrapeTests.freePort()
        let prefix = dir.file("nginx")
        let conf = dir.write("nginx/nginx.conf", #"""
            daemon off;
            worker_processes 1;
            pid \#(prefix)/nginx.pid;
            error_log \#(prefix)/error.log;
            events { worker_connections 64; }
            http {
              client_body_temp_path \#(prefix)/body;
              proxy_temp_path \#(prefix)/proxy;
              fastcgi_temp_path \#(prefix)/fastcgi;
              log_format app_json escape=json '{"time":"$time_iso8601","remote":"$remote_addr","msg":"$request",'
                  '"http":{"method":"$request_method","uri":"$request_uri","status":$status,"bytes":$body_bytes_sent,"request_time":$request_time},'
                  '"ua":"$http_user_agent"}';
              access_log \#(dir.file("logs/access.json")) app_json;
              access_log \#(dir.file("logs/access.log")) combined;
              server {
                listen 127.0.0.1:\#(port);
                location /fail { return 500; }
                location /missing { return 404; }
                location / { return 200 "ok\n"; }
              }
            }
            """#)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.nginx)
        server.arguments = ["-c", conf, "-p", prefix, "-e", "\(prefix)/error.log"]
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        #expect(Waiting.until(10) { (try? Harness.run("/usr/bin/curl", ["-s", "http://127.0.0.1:\(port)/ready"]))?.status == 0 })
        let ready = 1  // that request is logged too

        let config = dir.write("c.json", #"""
            {"sources": [{"name": "nginx_json", "include": ["logs/access.json"], "parser": "nginx_json"},
                         {"name": "nginx", "include": ["logs/access.log"], "parser": "combined"},
                         {"name": "app", "include": ["logs/app.log"]}],
             "checkpoints": "state/cp.json",
             "parsers": {
               "nginx_json": {"format": "json", "messageKey": "msg", "timestampKey": "time"},
               "combined": {"format": "regex",
                 "pattern": "^(?<remote>\\S+) \\S+ (?<user>\\S+) \\[(?<timestamp>[^\\]]+)\\] \"(?<message>[^\"]*)\" (?<status>\\d{3}) (?<bytes>\\d+|-) \"(?<referer>[^\"]*)\" \"(?<agent>[^\"]*)\"$",
                 "timestampFormat": "%d/%b/%Y:%H:%M:%S %z", "types": {"status": "integer", "bytes": "integer"}}},
             "parse": {"pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$",
               "categories": [
                 {"name": "error", "match": {"any": [{"field": "level", "equals": "ERROR"}, {"field": "http.status", "gte": 500}, {"field": "status", "gte": 500}]}},
                 {"name": "warning", "match": {"any": [{"field": "http.status", "gte": 400}, {"field": "status", "gte": 400}]}},
                 {"name": "info", "default": true}]},
             "outputs": [{"type": "file", "path": "out/{source}.jsonl", "format": "jsonl"},
                         {"type": "file", "path": "out/5xx.jsonl", "format": "jsonl",
                          "where": {"any": [{"field": "http.status", "gte": 500}, {"field": "status", "gte": 500}]}}]}
            """#)
        let logrotate = dir.write("logrotate.conf", """
            \(dir.file("logs/access.json")) \(dir.file("logs/access.log")) {
                rotate 5
                missingok
                sharedscripts
                postrotate
                    \(Self.nginx) -c \(conf) -p \(prefix) -s reopen
                endscript
            }
            """)
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(10) { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) }, "\(spytail.stderr)")
        var app = ""
        for i in 1...30 { app += "2026-11-25T10:00:\(i < 10 ? "0" : "")\(i)Z \(i % 10 == 0 ? "ERROR" : "INFO") app seq=\(i)\n" }
        try app.write(toFile: dir.file("logs/app.log"), atomically: false, encoding: .utf8)

        // Two rounds of requests with a rotation between them: 40 ok, 8 failing, 6 missing per round.
        func requests(_ round: Int) throws {
            for i in 1...54 {
                let path = i <= 40 ? "/page/\(round)-\(i)?q=%22x%22" : i <= 48 ? "/fail/\(round)-\(i)" : "/missing/\(round)-\(i)"
                _ = try Harness.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-A", "agent \"\(round)\"", "http://127.0.0.1:\(port)\(path)"])
            }
        }
        try requests(1)
        let rotation = try RunTools.logrotate(logrotate, state: dir.file("state/logrotate.state"))
        #expect(rotation.status == 0, "\(rotation.stderr)")
        try requests(2)
        let requestsLogged = ready + 2 * 54
        let json = RunToolsOutput(path: dir.file("out/nginx_json.jsonl")), combined = RunToolsOutput(path: dir.file("out/nginx.jsonl"))
        #expect(Waiting.until(20, every: 0.1) { json.linesOnDisk >= requestsLogged && combined.linesOnDisk >= requestsLogged },
                "json \(json.linesOnDisk), combined \(combined.linesOnDisk) of \(requestsLogged): \(spytail.stderr)")
        #expect(Waiting.until(10, every: 0.1) { RunToolsOutput(path: dir.file("out/app.jsonl")).linesOnDisk >= 30 })
        #expect(spytail.stop().status == 0)

        for output in [json, combined] {
            let records = output.records
            #expect(records.count == requestsLogged, "\(output.path): every request once")
            #expect(Set(records.compactMap { $0["message"] as? String }).count == requestsLogged)
            #expect(records.allSatisfy { $0["parseError"] == nil }, "\(records.first { $0["parseError"] != nil } ?? [:])")
            let fails = records.filter { ($0["message"] as? String)?.contains("/fail/") == true }
            let missing = records.filter { ($0["message"] as? String)?.contains("/missing/") == true }
            #expect(fails.count == 16 && fails.allSatisfy { $0["category"] as? String == "error" })
            #expect(missing.count == 12 && missing.allSatisfy { $0["category"] as? String == "warning" })
            #expect(records.filter { $0["category"] as? String == "info" }.count == requestsLogged - 28)
        }
        let jsonRecord = try #require(json.records.first { ($0["message"] as? String)?.contains("/fail/1-41") == true })
        let http = try #require((jsonRecord["fields"] as? [String: Any])?["http"] as? [String: Any])
        #expect(http["status"] as? Int == 500, "typed as nginx wrote it: \(http)")
        #expect(((jsonRecord["fields"] as? [String: Any])?["ua"] as? String) == "agent \"1\"")
        let combinedRecord = try #require(combined.records.first { ($0["message"] as? String)?.contains("/fail/1-41") == true })
        #expect((combinedRecord["fields"] as? [String: Any])?["status"] as? Int == 500, "the typed regex group")
        #expect((combinedRecord["source"] as? [String: Any])?["name"] as? String == "nginx")
        let appRecords = RunToolsOutput(path: dir.file("out/app.jsonl")).records
        #expect(appRecords.count == 30 && appRecords.filter { $0["category"] as? String == "error" }.count == 3)
        let failing = RunToolsOutput(path: dir.file("out/5xx.jsonl")).records
        #expect(failing.count == 32, "16 failing requests in each of the two access logs")
        #expect(Set(failing.compactMap { ($0["source"] as? [String: Any])?["name"] as? String }) == ["nginx_json", "nginx"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).contains("access.json.1"), "logrotate rotated")
    }
}
