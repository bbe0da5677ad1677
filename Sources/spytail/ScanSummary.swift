import SpytailCore
import SpytailIO

/// The end-of-scan summary on stderr: what was read, written per output, excluded per filter, errors.
struct ScanSummary {
    let report: ScanReport
    let stats: PipelineStats
    let filters: [String]
    let outputs: [SpytailConfig.Output]
    let window: TimeWindow?
    let elapsed: Duration

    var text: String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var lines = ["spytail: read \(report.linesRead) lines (\(report.bytesRead) bytes) from \(report.filesRead) file(s) "
            + "into \(stats.entries) entries in \(Self.format(seconds)) s"]
        for (i, output) in outputs.enumerated() {
            let name = output.destination.name
            lines.append("  output[\(i)] \(name) (\(output.format.rawValue)): \(stats.writtenByOutput[i]) records")
        }
        for (i, filter) in filters.enumerated() {
            lines.append("  filter[\(i)] exclude \(filter): \(stats.excludedByFilter[i]) entries")
        }
        if window != nil { lines.append("  outside --since/--until: \(stats.outsideWindow) entries") }
        if stats.parseErrors > 0 {
            lines.append("  did not parse (kept whole, with parseError): \(stats.parseErrors) lines")
        }
        lines.append("  errors: \(report.errors.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
