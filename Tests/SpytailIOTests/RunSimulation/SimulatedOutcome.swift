import Foundation
import SpytailIO
import SpytailTestSupport

/// The end-of-run invariants of a simulated run, read from its output's records and its gap reports:
/// - every line written is delivered, or the scenario destroyed it before the run was told of it (a line whose
///   write event reached the run while recording must be delivered, whatever happened to its file later);
/// - a line delivered twice only after a kill, every copy with the same id, and no id given to two lines;
/// - the lines of one file generation in the order they were written (first copies);
/// - every record a whole line (a line written in two parts is handed out once, whole), but the part a run saw
///   of a line the scenario destroyed.
struct SimulatedOutcome {
    let problems: [String]

    /// `records`: (line, id) of each record of the writers' lines in the output, in order (`SimulatedOutput`).
    /// `torn`: messages of records that are not a writer's whole line (`SimulatedOutput.torn`).
    init(host: SimulatedHost, records: [(line: SimulatedHost.Line, id: String)], torn: [String] = [], reporter: RecordingEventReporter,
         crashes: Int) {
        var problems: [String] = []
        // The first part of a line that the scenario destroyed before its rest could be read (written in
        // copytruncate's window) is what the run saw of it; any other part of a line is a line handed out in pieces.
        let destroyedParts = Set(host.halfText.filter { host.destroyed[$0.key] != nil }.values)
        let pieces = torn.filter { !destroyedParts.contains($0) }
        if !pieces.isEmpty { problems.append("records that are not a whole line: \(pieces.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))") }
        var ids: [SimulatedHost.Line: Set<String>] = [:]
        var copies: [SimulatedHost.Line: Int] = [:]
        var linesOf: [String: Set<SimulatedHost.Line>] = [:]
        var order: [SimulatedHost.Line] = []
        for (line, id) in records {
            ids[line, default: []].insert(id)
            linesOf[id, default: []].insert(line)
            copies[line, default: 0] += 1
            if copies[line] == 1 { order.append(line) }
        }
        let written = host.written
        let missing = written.filter { copies[$0] == nil }
        let unexplained = missing.filter { host.destroyed[$0] == nil || host.told.contains($0) }
        if !unexplained.isEmpty { problems.append("lost, and neither destroyed nor unknown to the run: \(Self.ranges(unexplained))") }
        let doubled = copies.filter { $0.value > 1 }.keys.sorted()
        if !doubled.isEmpty && crashes == 0 { problems.append("delivered twice without a kill: \(Self.ranges(doubled))") }
        // A file cut back behind a checkpoint is read on from an earlier position in a new epoch of ids.
        let otherIds = ids.filter { $0.value.count > 1 && !host.cutKnown.contains(host.generationOf[$0.key] ?? -1) }.keys.sorted()
        if !otherIds.isEmpty { problems.append("copies with another id: \(Self.ranges(otherIds))") }
        // Downstream dedup keeps one record per id: two lines under one id lose one of them there.
        // … except a line a power loss cut beyond what the checkpoints knew (nothing tells the restart).
        let shared = linesOf.values.filter { $0.subtracting(host.cutUnknown).count > 1 }.flatMap { $0 }
        if !shared.isEmpty { problems.append("lines sharing one id: \(Self.ranges(shared))") }
        let known = Set(written)
        let strangers = order.filter { !known.contains($0) }
        if !strangers.isEmpty { problems.append("delivered but never written: \(Self.ranges(strangers))") }
        var last: [Int: Int] = [:]  // generation → last seq delivered
        for line in order {
            guard let generation = host.generationOf[line] else { continue }
            if let before = last[generation], before > line.seq {
                problems.append("out of order in one file: \(line) after seq \(before)")
                break
            }
            last[generation] = line.seq
        }
        self.problems = problems
    }

    /// `w0#3-7, w1#12` for a sorted list of lines.
    static func ranges(_ lines: [SimulatedHost.Line]) -> String {
        var parts: [String] = []
        var start: SimulatedHost.Line?, previous: SimulatedHost.Line?
        func close() {
            guard let s = start, let p = previous else { return }
            parts.append(s.seq == p.seq ? "\(s)" : "\(s)-\(p.seq)")
        }
        for line in lines.sorted() {
            if let p = previous, p.writer == line.writer, p.seq + 1 == line.seq {
                previous = line
                continue
            }
            close()
            start = line
            previous = line
        }
        close()
        return parts.prefix(8).joined(separator: ", ") + (parts.count > 8 ? " … (\(parts.count) runs)" : "")
    }
}
