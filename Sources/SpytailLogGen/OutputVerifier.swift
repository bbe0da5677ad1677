import Glibc

/// Checks an output file of one record per line against a generated workload by the `seq=N` tokens:
/// which of the three expectations (joined, every line, heads only) it meets exactly, with no duplicate.
public struct OutputVerifier {
    public enum Mode: String, CaseIterable { case join, noJoin = "no_join", headsOnly = "heads_only" }

    public struct Difference: Equatable {
        public let expected: Int
        public let missing: Int
        public let unexpected: Int
    }

    public struct Report {
        public let recordsOut: Int
        public let recordsWithoutSeq: Int
        public let duplicates: Int
        public let inOrder: Bool
        public let differences: [Mode: Difference]

        /// The expectation met exactly (nothing missing, unexpected or repeated), if any.
        public var matches: Mode? {
            guard duplicates == 0, recordsWithoutSeq == 0 else { return nil }
            return Mode.allCases.first { differences[$0].map { $0.missing + $0.unexpected == 0 } == true }
        }

        public var json: String {
            let modes = Mode.allCases.map { mode -> String in
                let d = differences[mode]!
                return "\"\(mode.rawValue)\": {\"expected\": \(d.expected), \"missing\": \(d.missing), \"unexpected\": \(d.unexpected)}"
            }
            return "{\"records_out\": \(recordsOut), \"records_without_seq\": \(recordsWithoutSeq), \"duplicates\": \(duplicates), "
                + "\"in_order\": \(inOrder), \(modes.joined(separator: ", ")), "
                + "\"matches\": \(matches.map { "\"\($0.rawValue)\"" } ?? "null")}"
        }
    }

    public let lines: Int
    public let seed: UInt64

    public init(lines: Int, seed: UInt64 = 42) {
        self.lines = lines
        self.seed = seed
    }

    /// Verifies the records in the file at `path`.
    public func verify(path: String) throws -> Report {
        guard let file = fopen(path, "r") else { throw ChainWriter.WriteError.cannotOpen(path: path, errno: errno) }
        defer { fclose(file) }
        var seqs: [Int] = []
        var withoutSeq = 0
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            if let seq = Self.firstSeq(line) { seqs.append(seq) } else { withoutSeq += 1 }
        }
        return report(seqs: seqs, withoutSeq: withoutSeq)
    }

    func report(seqs: [Int], withoutSeq: Int) -> Report {
        var join = Set<Int>(), noJoin = Set<Int>(), heads = Set<Int>()
        for event in LogGenerator(lines: lines, seed: seed) {
            if event.isKept { join.insert(event.headSeq); heads.insert(event.headSeq); noJoin.insert(event.headSeq) }
            for i in 0..<event.continuationCount { noJoin.insert(event.headSeq + 1 + i) }
        }
        let got = Set(seqs)
        func difference(_ expected: Set<Int>) -> Difference {
            Difference(expected: expected.count, missing: expected.subtracting(got).count, unexpected: got.subtracting(expected).count)
        }
        return Report(recordsOut: seqs.count + withoutSeq, recordsWithoutSeq: withoutSeq, duplicates: seqs.count - got.count,
                      inOrder: zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 },
                      differences: [.join: difference(join), .noJoin: difference(noJoin), .headsOnly: difference(heads)])
    }

    /// The number after the first `seq=` in a C string.
    static func firstSeq(_ line: UnsafeMutablePointer<CChar>) -> Int? {
        guard let hit = strstr(line, "seq=") else { return nil }
        var cursor = hit + 4, value = 0, digits = 0
        while cursor.pointee >= 0x30 && cursor.pointee <= 0x39 {
            value = value * 10 + Int(cursor.pointee - 0x30)
            cursor += 1; digits += 1
        }
        return digits > 0 ? value : nil
    }
}
