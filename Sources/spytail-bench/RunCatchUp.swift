import Glibc

/// `spytail run` on its first start over a workload (the history rule: the chain oldest first, then the live
/// file), timed from its start until its output file holds as many bytes as `scan` wrote for the same input.
/// Wall time to that point, CPU time and peak RSS read from /proc at that point, then SIGTERM.
enum RunCatchUp {
    /// A config for `run` over `workload`: the benchmark's rules plus one source and a checkpoint file.
    static func config(for workload: Workload, output: String, checkpoints: String, http: String? = nil, outputs: String? = nil) -> String {
        let live = workload.files.last!
        let source = #""sources": [{"name": "bench", "include": ["\#(live)"], "rotated": true, "startAt": "beginning"}], "#
            + #""checkpoints": "\#(checkpoints)", "# + (http.map { #""http": \#($0), "# } ?? "")
        var json = BenchmarkConfig.json(output: output, outputs: outputs)
        json.insert(contentsOf: "\n  " + source, at: json.index(after: json.firstIndex(of: "{")!))
        return json
    }

    /// One run; `expectedBytes` is the size of scan's output. Gives up after `limit` seconds (status 124).
    /// With `viewers`, that many `curl -N` clients stream `/api/stream` from the moment the HTTP face listens
    /// (it does before reading starts) until the output is complete.
    static func measure(spytail: String, config: String, output: String, checkpoints: String, expectedBytes: Int,
                        stderr: String, limit: Double = 300, viewers: (count: Int, token: String)? = nil) -> Measurement {
        unlink(output)
        unlink(checkpoints)
        let start = Runner.now()
        let pid = spawn([spytail, "run", "--config", config], stderr: stderr)
        var clients: [pid_t] = []
        defer {
            for client in clients { kill(client, SIGKILL) }
            for client in clients { var status: Int32 = 0; waitpid(client, &status, 0) }
        }
        if let viewers {
            var port: Int?
            while port == nil && Runner.now() - start < 30 {
                port = readFile(stderr).flatMap { $0.split(separator: "\n").first { $0.contains("http: listening on") } }
                    .flatMap { Int($0.split(separator: ":").last ?? "") }
                if port == nil { usleep(500) }
            }
            guard let port else { fatal("spytail run did not start its HTTP face: see \(stderr)") }
            for _ in 0..<viewers.count {
                clients.append(spawn(["/usr/bin/curl", "-s", "-N", "-o", "/dev/null", "-H", "Authorization: Bearer \(viewers.token)",
                                      "http://127.0.0.1:\(port)/api/stream"], stderr: "/dev/null"))
            }
        }
        var status: Int32 = 0
        var finished = false
        // The condition polled (with a deadline) is the output's size: 1 ms granularity on a run of a second.
        while fileSize(output) < expectedBytes && Runner.now() - start < limit {
            if waitpid(pid, &status, WNOHANG) == pid { finished = true; break }
            usleep(1000)
        }
        let wall = Runner.now() - start
        let cpu = RunBenchmark.cpuSeconds(pid), rss = peakRSSKB(pid)
        if !finished {
            kill(pid, SIGTERM)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let reached = fileSize(output) >= expectedBytes
        return Measurement(wall: wall, cpu: cpu, peakRSSKB: rss, status: reached ? exit : (finished ? exit : 124))
    }

    static func spawn(_ argv: [String], stderr: String) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        guard rc == 0 else { fatal("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// VmHWM of a running process, in KB.
    static func peakRSSKB(_ pid: pid_t) -> Int {
        guard let status = readFile("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
