/// Recognises the names logrotate gives a file's rotated copies, and orders a chain oldest first.
///
/// For a live file `app.log`: `app.log.1`, `app.log.2.gz` … (higher number = older) and `dateext`
/// names `app.log-20261120`, `app.log-2026-11-20.gz` … (earlier date = older). Dated copies are read
/// before numbered ones if a directory has both.
public enum RotationName: Sendable, Hashable, Comparable {
    case dated(String)
    case numbered(Int)

    /// The rotation suffix of `candidate` as a rotated copy of `live`, and whether its name says gzip.
    public static func parse(live: String, candidate: String) -> (rotation: RotationName, gzipName: Bool)? {
        guard candidate.count > live.count + 1, candidate.hasPrefix(live) else { return nil }
        var rest = candidate.dropFirst(live.count)
        let separator = rest.removeFirst()
        let gzipName = rest.hasSuffix(".gz")
        if gzipName { rest = rest.dropLast(3) }
        guard !rest.isEmpty else { return nil }
        if separator == ".", rest.allSatisfy(\.isASCIIDigit), let number = Int(rest) {
            return (.numbered(number), gzipName)
        }
        if separator == "-", rest.first!.isASCIIDigit, rest.allSatisfy({ $0.isASCIIDigit || $0 == "-" || $0 == "_" }) {
            return (.dated(String(rest)), gzipName)
        }
        return nil
    }

    /// Oldest first: dated ascending, then numbered descending.
    public static func < (a: RotationName, b: RotationName) -> Bool {
        switch (a, b) {
        case (.dated(let x), .dated(let y)): x < y
        case (.numbered(let x), .numbered(let y)): x > y
        case (.dated, .numbered): true
        case (.numbered, .dated): false
        }
    }

    /// Orders the rotated copies of `live` among `names` oldest first. When the same rotation exists both
    /// plain and gzip-named (compression in progress), the plain one is kept: the other may be partial.
    public static func chain(live: String, names: [String]) -> [String] {
        var best: [RotationName: (name: String, gzip: Bool)] = [:]
        for name in names {
            guard let (rotation, gzip) = parse(live: live, candidate: name) else { continue }
            if let existing = best[rotation], !existing.gzip { continue }
            if let existing = best[rotation], existing.gzip == gzip { continue }
            best[rotation] = (name, gzip)
        }
        return best.sorted { $0.key < $1.key }.map(\.value.name)
    }

    /// Every rotated copy of `live` among `names`, oldest first, both forms of a rotation kept (plain
    /// first): for finding content by fingerprint, where reading a candidate twice does no harm.
    public static func allCopies(live: String, names: [String]) -> [String] {
        names.compactMap { name in parse(live: live, candidate: name).map { (name, $0.rotation, $0.gzipName) } }
            .sorted { ($0.1, $0.2 ? 1 : 0) < ($1.1, $1.2 ? 1 : 0) }
            .map(\.0)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
