/// How one source names its rotated copies: the built-in names of `RotationName`, plus the source's
/// `rotatedPattern` when it has one. Orders a chain oldest first from candidate paths in any folders.
public struct RotationNaming {
    /// The source's pattern: matched against a whole file name (without a trailing `.gz`); its named groups
    /// `date` and `index` give the order.
    public let pattern: Regex?

    public init(pattern: Regex? = nil) { self.pattern = pattern }

    /// The rotation of the file `candidate` (a bare name) as a copy of the live file named `live`.
    public func parse(live: String, candidate: String) -> (rotation: RotationName, gzipName: Bool)? {
        if let builtIn = RotationName.parse(live: live, candidate: candidate) { return builtIn }
        return candidate == live ? nil : patterned(candidate)
    }

    /// The rotation of `candidate` by the source's pattern alone.
    public func patterned(_ candidate: String) -> (rotation: RotationName, gzipName: Bool)? {
        guard let pattern else { return nil }
        let gzipName = candidate.hasSuffix(".gz")
        var name = Array((gzipName ? String(candidate.dropLast(3)) : candidate).utf8)
        let matched = name.withUnsafeMutableBufferPointer { buffer -> Bool in
            pattern.matches(UnsafeBufferPointer(buffer)) && pattern.group(0) == 0..<buffer.count
        }
        guard matched else { return nil }
        func group(_ groupName: String) -> String? {
            guard let number = pattern.namedGroups.first(where: { $0.name == groupName })?.number,
                  let range = pattern.group(number) else { return nil }
            return String(decoding: name[range], as: UTF8.self)
        }
        let date = group("date").map(RotationName.digitGroups) ?? []
        let index = group("index").flatMap { Int($0.prefix(18)) } ?? 0
        name.removeAll()
        return (.patterned(date: date, index: index), gzipName)
    }

    /// The rotated copies of the live file named `live` among `paths`, oldest first. When the same rotation
    /// exists both plain and gzip-named (compression in progress), the plain one is kept: the other may be partial.
    public func chain(live: String, paths: [String]) -> [String] {
        var best: [RotationName: (path: String, gzip: Bool)] = [:]
        for path in paths {
            guard let (rotation, gzip) = parse(live: live, candidate: Self.baseName(path)) else { continue }
            if let existing = best[rotation], !existing.gzip || existing.gzip == gzip { continue }
            best[rotation] = (path, gzip)
        }
        return best.sorted { $0.key < $1.key }.map(\.value.path)
    }

    /// Every rotated copy of `live` among `paths`, oldest first, both forms of a rotation kept (plain first):
    /// for finding content by fingerprint, where reading a candidate twice does no harm.
    public func allCopies(live: String, paths: [String]) -> [String] {
        paths.compactMap { path in parse(live: live, candidate: Self.baseName(path)).map { (path, $0.rotation, $0.gzipName) } }
            .sorted { ($0.1, $0.2 ? 1 : 0) < ($1.1, $1.2 ? 1 : 0) }
            .map(\.0)
    }

    static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
