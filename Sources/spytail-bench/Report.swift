/// The figures of one command over several runs, and the table they are printed in.
struct Figures {
    let workload: Workload
    let tool: String
    let runs: [Measurement]
    let outputLines: Int?

    var wall: Double { median(runs.map(\.wall)) }
    var cpu: Double { median(runs.map(\.cpu)) }
    var peakRSSMB: Double { Double(runs.map(\.peakRSSKB).max() ?? 0) / 1024 }
    var mbPerSecond: Double { Double(workload.bytes) / 1e6 / wall }
    var linesPerSecond: Double { Double(workload.lines) / wall }

    /// This command's speed against `base`'s, round by round (both ran in each round, one after the other): the
    /// median of the rounds' ratios (`base`'s wall time over this one's). A slow spell of the machine falls on
    /// both commands of a round, so it moves this far less than the ratio of the two medians.
    func pairedSpeed(against base: Figures) -> Double {
        median(zip(runs, base.runs).map { mine, theirs in theirs.wall / mine.wall })
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

enum Report {
    static func header() {
        print(row(["workload", "tool", "wall s (median)", "cpu s", "MB/s", "lines/s", "peak RSS MB", "output lines"]))
        print(row(Array(repeating: "---", count: 8)))
    }

    static func line(_ f: Figures) {
        print(row([f.workload.name, f.tool, fixed(f.wall, 3), fixed(f.cpu, 3), fixed(f.mbPerSecond, 0),
                   grouped(Int(f.linesPerSecond)), fixed(f.peakRSSMB, 1), f.outputLines.map(grouped) ?? "-"]))
    }

    static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard digits > 0 else { return "\(scaled)" }
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }
}
