import Glibc
import SpytailLogGen

/// W3: JSON lines read by `spytail scan` with a json parser, against JSON::XS in Perl and jq doing the same
/// decode, filter and encode, in the same rounds. The outputs must hold the same lines (checked by their
/// `seq`, in order), as many as the generator says the filter keeps.
extension Benchmark {
    func jsonRows(_ spytail: String) -> [String] {
        let input = "\(workdir)/W3.log", meta = "\(workdir)/W3.meta.json"
        if readFile(meta).map({ Workload.number("lines", in: $0) == lines }) != true {
            print("generating W3: \(lines) JSON lines …")
            do { writeFile(meta, try JSONLogWriter.writeFile(lines: lines, to: input).json + "\n") } catch { fatal("cannot generate W3: \(error)") }
        }
        guard let summary = readFile(meta), let kept = Workload.number("kept", in: summary), let bytes = Workload.number("bytes", in: summary) else {
            fatal("cannot read \(meta)")
        }
        let w3 = Workload(name: "W3", files: [input], lines: lines, bytes: bytes, expectedRecords: kept)
        let perl = "\(workdir)/baseline-json.pl", config = "\(workdir)/bench-json.json"
        writeFile(perl, JSONBaselines.perl)
        let outputs = (spytail: "\(outdir)/w3-spytail.jsonl", perl: "\(outdir)/w3-perl.jsonl", jq: "\(outdir)/w3-jq.jsonl",
                       foundation: "\(outdir)/w3-foundation.jsonl")
        writeFile(config, JSONBaselines.config(input: input, output: outputs.spytail))
        var failures: [String] = []
        if system("perl -MJSON::XS -e 1 2>/dev/null") != 0 { failures.append("W3: perl's JSON::XS is missing (Debian libjson-xs-perl)") }
        if system("command -v jq >/dev/null") != 0 { failures.append("W3: jq is missing (Debian jq)") }
        guard failures.isEmpty else { return failures }
        let commands = [
            Command(tool: "read (dd)", argv: ["sh", "-c", "dd if='\(input)' bs=256k status=none > /dev/null"], output: nil),
            Command(tool: "jq -c", argv: ["sh", "-c", "jq -c '\(JSONBaselines.jqFilter)' '\(input)' > '\(outputs.jq)'"], output: outputs.jq),
            Command(tool: "perl JSON::XS", argv: ["sh", "-c", "perl '\(perl)' < '\(input)' > '\(outputs.perl)'"], output: outputs.perl),
            Command(tool: "Foundation JSONSerialization", argv: ["\(Self.executableDirectory())/spytail-bench", "foundation-json", input, outputs.foundation],
                    output: outputs.foundation),
            Command(tool: "spytail", argv: [spytail, "scan", "--quiet", "--config", config], output: outputs.spytail),
        ]
        print("\nW3: \(Report.grouped(lines)) JSON lines, \(Report.grouped(bytes / lines)) bytes a line on average, "
              + "filter level WARNING/ERROR or http.status >= 500 (\(Report.grouped(kept)) kept)")
        Report.header()
        let rows = measureInterleaved(w3, commands)
        for f in rows {
            Report.line(f)
            if let n = f.outputLines, n != kept { failures.append("W3 \(f.tool): \(n) output lines, expected \(kept)") }
            if let bad = f.runs.first(where: { $0.status != 0 }) { failures.append("W3 \(f.tool): exit \(bad.status)") }
        }
        let (read, jq, perlRow, foundation, ours) = (rows[0], rows[1], rows[2], rows[3], rows[4])
        let seqs = [outputs.jq, outputs.perl, outputs.foundation, outputs.spytail].map(Self.sequenceNumbers)
        if seqs[3] != seqs[0] || seqs[1] != seqs[0] || seqs[2] != seqs[0] {
            failures.append("W3: spytail, perl, Foundation and jq did not keep the same lines (by seq)")
        }
        print("W3: spytail \(Report.grouped(Int(ours.linesPerSecond))) lines/s = \(Report.fixed(perlRow.wall / ours.wall, 1))x perl JSON::XS "
              + "(\(Report.grouped(Int(perlRow.linesPerSecond))) lines/s), \(Report.fixed(jq.wall / ours.wall, 1))x jq, "
              + "\(Report.fixed(foundation.wall / ours.wall, 1))x Foundation's JSONSerialization; "
              + "spytail/read wall = \(Report.fixed(ours.wall / read.wall, 2))x; peak RSS \(Report.fixed(ours.peakRSSMB, 1)) MB")
        for path in [outputs.spytail, outputs.perl, outputs.jq, outputs.foundation] { unlink(path) }
        return failures
    }

    /// The `"seq":N` of every line of `path`, in order (the generator's line numbers).
    static func sequenceNumbers(_ path: String) -> [Int] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var numbers: [Int] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        let key = Array(#""seq":"#.utf8)
        while getline(&line, &capacity, file) > 0, let line {
            let bytes = UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self)
            let count = strlen(line)
            var i = 0, found = -1
            while i + key.count <= count {
                if memcmp(bytes + i, key, key.count) == 0 { found = i + key.count }
                i += 1
            }
            var value = 0
            if found >= 0 {
                var k = found
                while k < count, bytes[k] &- 48 < 10 { value = value * 10 + Int(bytes[k] - 48); k += 1 }
            }
            numbers.append(value)
        }
        free(line)
        return numbers
    }
}
