import ArgumentParser
import CJSONScan
import CSimdjsonBench
import Glibc
import SpytailCore

/// `spytail-bench json-parsers`: the per-line JSON work alone, on one core, over the same lines: spytail's
/// `JSONLineScanner` (validates the whole line, records each top-level member's key and value as written)
/// against simdjson, the parser the issue named as the one to beat, through its DOM API (validates the whole
/// line, builds its tape) and its On-Demand API used as spytail uses its scanner (each top-level member's
/// key and raw value). Also spytail's C structural pass alone with each instruction set the CPU has. Prints
/// medians of `--runs` passes; asserts nothing.
struct JSONParsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json-parsers",
        abstract: "Time spytail's JSON scanner against simdjson (DOM and On-Demand) over the lines of a file, one core.",
        discussion: "Generate the lines first: spytail-bench generate --json W3.log (or use the measure run's /tmp/spytail-bench/W3.log).")

    @Argument(help: "A file of JSON lines.") var input: String
    @Option(help: "Passes over the lines per parser (the median is reported).") var runs = 5

    func run() throws {
        let lines = try Self.paddedLines(input, padding: sjb_padding())
        guard lines.count > 0 else { throw ValidationError("\(input) holds no lines") }
        let bytes = lines.ranges.reduce(0) { $0 + $1.count }
        print("\(lines.count) lines, \(bytes) bytes (\(bytes / lines.count) a line), \(runs) passes each, one core\n")
        print("| parser | what it checks and keeps | ns/line (median) | MB/s | lines/s | members seen |")
        print("| --- | --- | --- | --- | --- | --- |")
        var scanner = JSONLineScanner()
        var fields: [FieldValue] = []
        fields.reserveCapacity(64)
        let spytail = measure(lines) { p, n in
            fields.removeAll(keepingCapacity: true)
            do throws(ParseProblem) { try scanner.scanObject(p, n, into: &fields) } catch { return -1 }
            return fields.count
        }
        guard let parser = sjb_parser_new() else { throw ValidationError("simdjson: no parser") }
        defer { sjb_parser_free(parser) }
        let dom = measure(lines) { p, n in Int(sjb_dom_members(parser, p, n)) }
        var ranges = [Int](repeating: 0, count: 4 * 256)
        let ondemand = ranges.withUnsafeMutableBufferPointer { ranges in
            measure(lines) { p, n in
                Int(ranges.baseAddress!.withMemoryRebound(to: size_t.self, capacity: ranges.count) {
                    sjb_ondemand_members(parser, p, n, $0, 256)
                })
            }
        }
        // The structural pass alone (no Swift fields, no UTF-8 check), with each instruction set this CPU has.
        var passes: [(String, Timing)] = []
        var room = [cjs_member](repeating: cjs_member(), count: 256)
        for (name, isa) in JSONLineScanner.instructionSets {
            let timing = room.withUnsafeMutableBufferPointer { room in
                measure(lines) { p, n in
                    var firstHigh: Int64 = -1
                    return Int(cjs_scan_object_isa(isa, p, n, room.baseAddress, room.count, &firstHigh, Int32(JSONLineScanner.maxDepth)))
                }
            }
            passes.append((name, timing))
        }
        row("spytail JSONLineScanner", "whole line validated; top-level keys and values as written", spytail, lines.count, bytes)
        for (name, timing) in passes {
            row("spytail's C pass alone, \(name)", "grammar and escapes validated (UTF-8 is checked after it); members as offsets", timing, lines.count, bytes)
        }
        row("simdjson DOM", "whole line validated; tape built (no positions in the line)", dom, lines.count, bytes)
        row("simdjson On-Demand", "top-level keys and raw values; skipped nested values not checked", ondemand, lines.count, bytes)
        print("\nspytail/simdjson DOM time: \(String(format: "%.2f", spytail.seconds / dom.seconds))x, "
              + "spytail/simdjson On-Demand time: \(String(format: "%.2f", spytail.seconds / ondemand.seconds))x")
        if spytail.members != dom.members || spytail.members != ondemand.members {
            print("members differ: spytail \(spytail.members), DOM \(dom.members), On-Demand \(ondemand.members) (a line one refuses counts 0)")
        }
    }

    struct Timing {
        var seconds: Double
        var members: Int
    }

    /// The median time of `runs` passes of `parse` over every line, and the members it found (lines refused: 0).
    func measure(_ lines: PaddedLines, _ parse: (UnsafePointer<UInt8>, Int) -> Int) -> Timing {
        var times: [Double] = [], members = 0
        lines.storage.withUnsafeBufferPointer { storage in
            for _ in 0..<runs {
                members = 0
                let start = Self.now()
                for range in lines.ranges { members += max(0, parse(storage.baseAddress! + range.lowerBound, range.count)) }
                times.append(Self.now() - start)
            }
        }
        return Timing(seconds: times.sorted()[times.count / 2], members: members)
    }

    func row(_ name: String, _ what: String, _ t: Timing, _ count: Int, _ bytes: Int) {
        let ns = t.seconds * 1e9 / Double(count)
        print("| \(name) | \(what) | \(String(format: "%.0f", ns)) | \(String(format: "%.0f", Double(bytes) / t.seconds / 1e6)) | "
              + "\(Int(Double(count) / t.seconds)) | \(t.members) |")
    }

    /// The lines of a file (without their newlines), each followed by `padding` readable bytes.
    struct PaddedLines {
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        var count: Int { ranges.count }
    }

    static func paddedLines(_ path: String, padding: Int) throws -> PaddedLines {
        var lines = PaddedLines()
        try LineFile.forEachLine(path) { line in
            let bytes = line.last == 0x0A ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
            lines.ranges.append(lines.storage.count..<(lines.storage.count + bytes.count))
            lines.storage.append(contentsOf: bytes)
            lines.storage.append(contentsOf: repeatElement(0x20, count: padding))
        }
        return lines
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
