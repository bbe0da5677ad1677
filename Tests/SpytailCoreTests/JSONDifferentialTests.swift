import Foundation
import Testing
@testable import SpytailCore
import SpytailLogGen

/// The JSON scanner against another JSON parser, Python's `json`: over generated app lines, hand-picked edge
/// cases and random mutations of both, every line is accepted by both or refused by both, and what spytail
/// writes as the record's `fields` reads back in Python as the object Python read from the line. Python is
/// held to strict UTF-8 and standard JSON: its `json.loads` on bytes also takes UTF-8-encoded surrogates, and
/// `NaN`/`Infinity`, which RFC 8259 and spytail refuse.
struct JSONDifferentialTests {
    static func lines() -> [[UInt8]] {
        var lines = JSONLogGenerator(lines: 1500, seed: 7).map { Array($0.line.utf8) }
        let edges = [
            #"{}"#, #"{"a":{}}"#, #"{"a":[]}"#, #"{"a":[[[[1]]]]}"#, #"{"a":"\u0000"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00\ud800"}"#,
            #"{"a":1e400}"#, #"{"a":-1e-400}"#, #"{"a":123456789012345678901234567890}"#, #"{"a":1,"a":2}"#, #"{"a":1,"b":{"a":2,"a":3}}"#,
            #"{"\u0061":"key escaped"}"#, #"{"a.b":1,"a":{"b":2}}"#, #" {"a" : true , "b":false,"c":null } "#, #"{"e":"\/\b\f\n\r\t\"\\"}"#,
            "{\"k\":\"日本語 ✈ café\"}", #"{"a":0.0,"b":-0,"c":1E+2,"d":1e-2}"#,
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":'x'}"#, #"{a:1}"#, #"{"a":1,}"#, #"[1,2]"#, #""str""#, #"1"#,
            #"{"a":tru}"#, #"{"a":"\x41"}"#, #"{"a":"\u12"}"#, #"{"a" 1}"#, #"{"a":1}}"#, #"{"a":[1,]}"#, "{\"a\":\"\t\"}", "",
        ]
        lines += edges.map { Array($0.utf8) }
        lines.append(Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        lines.append(Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8))  // a surrogate in UTF-8: invalid
        var random = SplitMix64(seed: 99)
        let alphabet = Array(#"{}[]":,\ 0123456789.eE+-tfnaux"#.utf8) + [0x80, 0xC3, 0xA9]
        for k in 0..<3000 {
            var line = lines[random.below(1500 + edges.count)]
            for _ in 0...random.below(3) where !line.isEmpty {
                let at = random.below(line.count)
                switch random.below(3) {
                case 0: line.remove(at: at)
                case 1: line.insert(alphabet[random.below(alphabet.count)], at: at)
                default: line[at] = alphabet[random.below(alphabet.count)]
                }
            }
            if k % 2 == 0 || !line.contains(0x0A) { lines.append(line.filter { $0 != 0x0A && $0 != 0x0D }) }
        }
        return lines
    }

    @Test func spytailAndPythonAgreeOnEveryLine() throws {
        let config = try Structured.config(parser: #"{"format": "json", "messageKey": "no\\.such\\.key", "timestampKey": "no\\.such\\.key"}"#)
        let formatter = JSONLinesFormatter(vocabulary: config.rules.vocabulary)
        let lines = Self.lines()
        var verdicts: [UInt8] = []
        for line in lines {
            var entry = SpyEntry(file: SourceFile(path: "/a", fingerprint: Fingerprint(value: 1), source: 0))
            entry.text = line
            entry.headLength = line.count
            config.rules.classify(&entry, readTime: false)
            if entry.parseError != nil {
                verdicts += Array("REJECT\n".utf8)
                continue
            }
            let out = OutputBuffer(capacity: 1024)
            entry.text.withUnsafeBufferPointer { formatter.format(entry, text: $0, into: out) }
            verdicts += Array("ACCEPT ".utf8) + out.array
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spytail-diff-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(lines.map { $0 + [0x0A] }.joined()).write(to: dir.appendingPathComponent("lines"))
        try Data(verdicts).write(to: dir.appendingPathComponent("verdicts"))
        let script = #"""
            import json, math, sys
            lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
            verdicts = open(sys.argv[2], "rb").read().split(b"\n")[:-1]
            assert len(lines) == len(verdicts), (len(lines), len(verdicts))
            def reject_constant(name): raise ValueError("non-standard " + name)
            bad, accepted = [], 0
            for i, (line, verdict) in enumerate(zip(lines, verdicts)):
                try:
                    # Strict UTF-8 first: json.loads(bytes) decodes with 'surrogatepass', accepting UTF-8-encoded
                    # surrogates (ED A0 80), which RFC 3629 forbids and spytail refuses.
                    ours = json.loads(line.decode("utf-8"), parse_constant=reject_constant)
                    if not isinstance(ours, dict): raise ValueError("not an object")
                    theirs = "ACCEPT"
                except (ValueError, RecursionError, UnicodeDecodeError) as e:
                    theirs = "REJECT"
                if verdict.startswith(b"ACCEPT"):
                    if theirs != "ACCEPT": bad.append((i, "spytail accepts, python refuses", line)); continue
                    record = json.loads(verdict[7:])
                    if record["fields"] != ours: bad.append((i, "fields differ: %r" % record["fields"], line))
                    accepted += 1
                elif theirs != "REJECT":
                    bad.append((i, "spytail refuses, python accepts", line))
            print("lines", len(lines), "accepted", accepted, "mismatches", len(bad))
            for i, why, line in bad[:5]: print(i, why, line[:200])
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, dir.appendingPathComponent("lines").path, dir.appendingPathComponent("verdicts").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("mismatches 0"), "\(output)")
        let accepted = Int(output.split(separator: " ").dropFirst(3).first ?? "") ?? 0
        #expect(accepted > 1500, "the comparison covered the generated lines: \(output)")
    }
}
