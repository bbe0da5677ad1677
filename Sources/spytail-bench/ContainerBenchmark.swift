import Glibc
import SpytailLogGen

/// W4: W1's lines as a node's container runtime writes them — in CRI lines (containerd's spelling) and in
/// Docker's json-file — with 5 % of them cut into parts (`P` … `F`; a `log` without its `\n`), read by `scan` and
/// by `run` from its first start with the benchmark's rules as the inner regex parser. The same records as W1
/// must come out. Then `run` over 1,000 container files under a `/var/log/pods`-shaped tree, for its peak RSS.
extension Benchmark {
    func containerRows(_ w1: Workload, _ spytail: String) -> [String] {
        var failures: [String] = []
        let cri = prepareContainerLog(from: w1, runtime: .containerd), docker = prepareContainerLog(from: w1, runtime: .docker)
        let output = "\(outdir)/w4.jsonl"
        let configs = (w1: "\(workdir)/w4-w1.json", cri: "\(workdir)/w4-cri.json", docker: "\(workdir)/w4-docker.json")
        writeFile(configs.w1, BenchmarkConfig.json(output: output))
        writeFile(configs.cri, BenchmarkConfig.containerJSON(format: "cri", files: cri.files, output: output))
        writeFile(configs.docker, BenchmarkConfig.containerJSON(format: "docker", files: docker.files, output: output))
        let commands = [
            Command(tool: "spytail scan (W1 lines)", argv: [spytail, "scan", "--quiet", "--config", configs.w1] + w1.files, output: output),
            Command(tool: "spytail scan, cri", argv: [spytail, "scan", "--quiet", "--config", configs.cri], output: output),
            Command(tool: "spytail scan, docker", argv: [spytail, "scan", "--quiet", "--config", configs.docker], output: output),
        ]
        print("\nW4: W1's \(Report.grouped(w1.lines)) lines in container envelopes (5 % cut into parts): CRI "
              + "\(Report.grouped(cri.bytes / 1_000_000)) MB, Docker json-file \(Report.grouped(docker.bytes / 1_000_000)) MB; "
              + "the same rules, as the cri/docker parser's inner regex parser")
        Report.header()
        var rows = zip(measureInterleaved(w1, commands), [w1, cri, docker]).map { figures, workload in
            Figures(workload: workload, tool: figures.tool, runs: figures.runs, outputLines: figures.outputLines)
        }
        // run from its first start, alternating W1, CRI and Docker: its output complete at scan's size for each.
        var sizes: [String: Int] = [:]
        for (name, command) in [("W1", commands[0]), ("cri", commands[1]), ("docker", commands[2])] {
            _ = command.run()
            sizes[name] = RunCatchUp.fileSize(output)
        }
        let checkpoints = "\(workdir)/w4.checkpoints.json"
        let runConfigs = (w1: "\(workdir)/w4-run-w1.json", cri: "\(workdir)/w4-run-cri.json", docker: "\(workdir)/w4-run-docker.json")
        writeFile(runConfigs.w1, RunCatchUp.config(for: w1, output: output, checkpoints: checkpoints))
        writeFile(runConfigs.cri, BenchmarkConfig.containerJSON(format: "cri", files: cri.files, output: output, checkpoints: checkpoints))
        writeFile(runConfigs.docker, BenchmarkConfig.containerJSON(format: "docker", files: docker.files, output: output, checkpoints: checkpoints))
        var runW1: [Measurement] = [], runCRI: [Measurement] = [], runDocker: [Measurement] = []
        for _ in 0..<runs {
            let measure = { (config: String, size: String) in
                RunCatchUp.measure(spytail: spytail, config: config, output: output, checkpoints: checkpoints,
                                   expectedBytes: sizes[size]!, stderr: "\(workdir)/w4-run.stderr")
            }
            runW1.append(measure(runConfigs.w1, "W1"))
            runCRI.append(measure(runConfigs.cri, "cri"))
            runDocker.append(measure(runConfigs.docker, "docker"))
        }
        rows.append(Figures(workload: w1, tool: "spytail run (W1 lines)", runs: runW1, outputLines: nil))
        rows.append(Figures(workload: cri, tool: "spytail run, cri", runs: runCRI, outputLines: nil))
        rows.append(Figures(workload: docker, tool: "spytail run, docker", runs: runDocker, outputLines: nil))
        unlink(output)
        // The same records as W1's lines read plain in the same rounds (and as the generator counts for W1).
        let expected = rows[0].outputLines ?? w1.expectedRecords
        if expected != w1.expectedRecords { failures.append("W4: W1's lines gave \(expected) records, the generator counts \(w1.expectedRecords) (a stale W1 in \(workdir)?)") }
        for f in rows {
            Report.line(f)
            if let n = f.outputLines, n != expected { failures.append("W4 \(f.tool): \(n) output lines, expected \(expected)") }
            if let bad = f.runs.first(where: { $0.status != 0 }) { failures.append("W4 \(f.tool): exit \(bad.status)") }
        }
        // Round by round: each round ran W1 and both envelopes one after the other (`Figures.pairedSpeed`).
        let ratio = { (f: Figures, base: Figures) in Report.fixed(f.pairedSpeed(against: base), 2) }
        print("W4: application lines/s against W1's, the median of the rounds' ratios: scan cri \(ratio(rows[1], rows[0]))x, scan docker "
              + "\(ratio(rows[2], rows[0]))x, run cri \(ratio(rows[4], rows[3]))x, run docker \(ratio(rows[5], rows[3]))x; "
              + "peak RSS scan cri \(Report.fixed(rows[1].peakRSSMB, 1)) MB, docker \(Report.fixed(rows[2].peakRSSMB, 1)) MB, "
              + "run cri \(Report.fixed(rows[4].peakRSSMB, 1)) MB, run docker \(Report.fixed(rows[5].peakRSSMB, 1)) MB")
        failures += manyContainerFiles(spytail)
        return failures
    }

    /// W1's file wrapped by `runtime`, cached in the work folder; every line on stdout (so the multiline rule
    /// joins as in W1), 5 % of the lines cut into two or three parts.
    func prepareContainerLog(from w1: Workload, runtime: ContainerEnvelopeWriter.Runtime) -> Workload {
        let path = "\(workdir)/W4-\(runtime.rawValue).log", meta = "\(path).meta"
        if readFile(meta).map({ Workload.number("lines", in: $0) == w1.lines }) != true {
            print("generating W4 (\(runtime.rawValue)) from W1 …")
            guard let input = fopen(w1.files[0], "r"), let out = fopen(path, "w") else { fatal("cannot write \(path)") }
            var random = SplitMix64(seed: 4)
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0, n: Int64 = 0
            while true {
                let length = getline(&line, &capacity, input)
                guard length > 0, let line else { break }
                let text = Array(UnsafeBufferPointer(start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self), count: length - 1))
                let cut = random.chance(5) && text.count > 2 ? max(1, text.count / random.within(2...3)) : nil
                let writer = ContainerEnvelopeWriter(runtime: runtime, partSize: cut ?? max(text.count, 1))
                let bytes = writer.lines(for: text, stdout: true, nanos: 1_795_000_000_000_000_000 + n * 1_000_003)
                _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, out) }
                n += 1
            }
            free(line)
            fclose(input)
            fclose(out)
            writeFile(meta, #"{"lines":\#(w1.lines)}"# + "\n")
        }
        return Workload(name: "W4", files: [path], lines: w1.lines, bytes: RunCatchUp.fileSize(path), expectedRecords: w1.expectedRecords)
    }

    /// `run` over 1,000 container logs (pods × containers, 300 CRI lines each, 5 % of lines in parts) from its first
    /// start until its output is complete: the peak RSS with that many files open.
    func manyContainerFiles(_ spytail: String) -> [String] {
        let root = "\(workdir)/W4-pods", output = "\(outdir)/w4-pods.jsonl", checkpoints = "\(workdir)/w4-pods.checkpoints.json"
        let files = 1000, linesEach = 300
        if !fileExists("\(root)/ns_pod-999_uid/c/0.log") {
            print("generating W4's pods: \(files) container logs …")
            var random = SplitMix64(seed: 1000)
            mkdir(root, 0o755)
            for i in 0..<files {
                let folder = "\(root)/ns_pod-\(i)_uid"
                mkdir(folder, 0o755)
                mkdir("\(folder)/c", 0o755)
                var bytes: [UInt8] = []
                for k in 0..<linesEach {
                    let text = Array("2026-11-25T12:00:00Z INFO [db] pod \(i) line \(k) \(String(repeating: "x", count: random.below(80)))".utf8)
                    let writer = ContainerEnvelopeWriter(runtime: .conmon, partSize: random.chance(5) ? text.count / 2 : text.count)
                    bytes += writer.lines(for: text, stdout: random.chance(70), nanos: 1_795_000_000_000_000_000 + Int64(k))
                }
                writeFile("\(folder)/c/0.log", String(decoding: bytes, as: UTF8.self))
            }
        }
        let config = "\(workdir)/w4-pods.json"
        writeFile(config, BenchmarkConfig.containerJSON(format: "cri", files: ["\(root)/*/*/*.log"], output: output, checkpoints: checkpoints,
                                                        pathFields: true))
        unlink(output)
        _ = Runner.run([spytail, "scan", "--quiet", "--config", config])
        let expected = RunCatchUp.fileSize(output), records = countLines(output)
        let m = RunCatchUp.measure(spytail: spytail, config: config, output: output, checkpoints: checkpoints, expectedBytes: expected,
                                   stderr: "\(workdir)/w4-pods.stderr")
        unlink(output)
        print("W4 pods: run over \(files) container files (\(Report.grouped(records)) records): \(Report.fixed(m.wall, 2)) s, "
              + "peak RSS \(Report.fixed(Double(m.peakRSSKB) / 1024, 1)) MB")
        return m.status == 0 && records == files * linesEach ? [] : ["W4 pods: run exit \(m.status), scan wrote \(records) records, expected \(files * linesEach)"]
    }
}
