import SpytailLogGen

/// A benchmark input made by the project's log generator, with the counts it promises for it.
struct Workload {
    let name: String
    /// Files in reading order (oldest first).
    let files: [String]
    let lines: Int
    /// Decompressed bytes.
    let bytes: Int
    /// Records kept by the reference filter with continuation lines joined (the generator's `kept_join`).
    let expectedRecords: Int

    var compressed: Bool { files.contains { $0.hasSuffix(".gz") } }

    /// Generates the workload unless a matching one is cached in `directory`; reads the generator's summary.
    static func prepare(name: String, lines: Int, rotatedChain: Bool, directory: String) -> Workload {
        let meta = "\(directory)/\(name).meta.json"
        let target = rotatedChain ? "\(directory)/\(name)" : "\(directory)/\(name).log"
        if readFile(meta).map({ Self.number("lines", in: $0) == lines }) != true {
            print("generating \(name): \(lines) lines\(rotatedChain ? " over a rotated chain" : "") …")
            do {
                let counts = rotatedChain ? try ChainWriter.writeChain(lines: lines, rotations: 9, in: target)
                    : try ChainWriter.writeFile(lines: lines, to: target)
                writeFile(meta, counts.json + "\n")
            } catch { fatal("cannot generate \(name): \(error)") }
        }
        guard let summary = readFile(meta), let kept = number("kept_join", in: summary), let bytes = number("bytes", in: summary) else {
            fatal("cannot read \(meta)")
        }
        let files = rotatedChain
            ? (2...9).reversed().map { "\(target)/app.log.\($0).gz" } + ["\(target)/app.log.1", "\(target)/app.log"]
            : [target]
        return Workload(name: name, files: files, lines: lines, bytes: bytes, expectedRecords: kept)
    }

    /// The first number after `"key":` in the generator's JSON summary.
    static func number(_ key: String, in json: String) -> Int? {
        guard let range = json.firstRange(of: "\"\(key)\":") else { return nil }
        let digits = json[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }
}
