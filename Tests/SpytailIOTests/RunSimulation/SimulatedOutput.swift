import Foundation
import Glibc
import SpytailCore
@testable import SpytailIO

/// The run's output file, read as it grows: each record parsed once (JSON), kept in output order, for the
/// checks at each checkpoint save (`SavedAheadCheck`) and at the end (`SimulatedOutcome`).
final class SimulatedOutput {
    private let path: String
    /// The writers' names, as their lines begin.
    let writers: [String]
    private var parsed = 0
    /// (line, id) of each record of the writers' lines, in output order.
    private(set) var records: [(line: SimulatedHost.Line, id: String)] = []
    private(set) var delivered = Set<SimulatedHost.Line>()
    /// Messages of records that are neither a gap nor a writer's whole line (a line handed out in pieces).
    private(set) var torn: [String] = []

    init(path: String, writers: [String]) {
        self.path = path
        self.writers = writers
    }

    /// Reads the records appended since the last look (whole lines only; only the new bytes are read). A file
    /// that got shorter (no run does that to its output) is read again from its start.
    func catchUp() {
        guard let st = Syscall.stat(path) else { return }
        if Int(st.st_size) < parsed { (parsed, records, delivered) = (0, [], []) }
        guard Int(st.st_size) > parsed else { return }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) - parsed)
        let n = (try? bytes.withUnsafeMutableBytes { (raw) throws(Errno) in try Syscall.pread(fd, raw, at: Int64(parsed)) }) ?? 0
        guard let end = bytes[..<max(0, n)].lastIndex(of: UInt8(ascii: "\n")) else { return }
        for record in Self.records(in: bytes[...end], writers: writers) {
            guard let line = record.line else {
                torn.append(record.message)
                continue
            }
            records.append((line, record.id))
            delivered.insert(line)
        }
        parsed += end + 1
    }

    /// Each record of `bytes` (whole records) but gaps, in order, with the writer's line it is (nil: its message
    /// is not one whole line of a writer). Split as bytes: splitting a `String` by characters was a tenth of a
    /// seed's time at -Onone.
    static func records(in bytes: ArraySlice<UInt8>, writers: [String]) -> [(line: SimulatedHost.Line?, id: String, message: String)] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { raw in
            guard let record = (try? JSONSerialization.jsonObject(with: Data(raw))) as? [String: Any],
                  let message = record["message"] as? String, let id = record["id"] as? String,
                  record["category"] as? String != GapVocabulary.category else { return nil }
            return (line(message, writers: writers).flatMap { SimulatedHost.text(of: $0, writer: writers[$0.writer]) == message + "\n" ? $0 : nil },
                    id, message)
        }
    }

    /// The writer's line a text is (`a seq=12 xxx`), if it is one.
    static func line(_ text: String, writers: [String]) -> SimulatedHost.Line? {
        let words = text.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, let w = writers.firstIndex(of: String(words[0])), words[1].hasPrefix("seq="),
              let seq = Int(words[1].dropFirst(4)) else { return nil }
        return SimulatedHost.Line(writer: w, seq: seq)
    }
}
