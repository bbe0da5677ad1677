/// Where a rotated copy stands in its chain, read from its name; `<` orders a chain oldest first.
///
/// For a live file `app.log` the built-in names are, with an optional `.gz` after each:
/// - numbered (logrotate, Python's `RotatingFileHandler`): `app.log.1`, `app.log.2` … (higher = older);
///   with logrotate's `extension .log`: `app.1.log`, `app.2.log` …;
/// - dated (logrotate `dateext` with any `dateformat`, Python's `TimedRotatingFileHandler`):
///   `app.log-20261120`, `app.log.2026-11-20`, `app.log.2026-11-20_07-48-50`, `app.log-1795168800`; with
///   `extension .log`: `app-20261120.log`. A date has at least six digits; its digit groups are compared
///   as numbers (earlier = older).
/// - patterned: a source's `rotatedPattern` with named groups `date` and `index` (logback, log4j2):
///   date ascending, then index ascending (higher = newer, as those libraries number).
/// Patterned copies come first, then dated, then numbered, if a folder holds several kinds.
public enum RotationName: Sendable, Hashable, Comparable {
    case patterned(date: [Int], index: Int)
    case dated([Int])
    case numbered(Int)

    /// The rotation of `candidate` as a rotated copy of `live` (both bare file names), by the built-in
    /// names, and whether its name says gzip.
    public static func parse(live: String, candidate: String) -> (rotation: RotationName, gzipName: Bool)? {
        let gzipName = candidate.hasSuffix(".gz")
        let name = gzipName ? String(candidate.dropLast(3)) : candidate
        guard name != live else { return nil }
        // `app.log` + separator + key
        if name.hasPrefix(live), let separator = name.dropFirst(live.count).first,
           let rotation = key(String(name.dropFirst(live.count + 1)), separator: separator) {
            return (rotation, gzipName)
        }
        // logrotate's `extension`: `app` + separator + key + `.log`
        if let (stem, ext) = splitExtension(live), name.hasPrefix(stem), name.hasSuffix(ext),
           name.count > stem.count + ext.count + 1 {
            let middle = name.dropFirst(stem.count).dropLast(ext.count)
            if let rotation = key(String(middle.dropFirst()), separator: middle.first!) { return (rotation, gzipName) }
        }
        return nil
    }

    /// The live name a rotated copy belongs to, by the built-in names (nil: not a rotated name).
    public static func liveName(of candidate: String) -> String? {
        let name = candidate.hasSuffix(".gz") ? String(candidate.dropLast(3)) : candidate
        // `app.log` + separator + key: the key is the trailing run of digits and separators.
        let keyChars = name.reversed().prefix { $0.isASCIIDigit || separators.contains($0) }.count
        if keyChars > 0 && keyChars < name.count {
            let head = name.dropLast(keyChars)
            var live = String(head)
            var rest = String(name.suffix(keyChars))
            // The separator is the first character of the run; the key starts at the first digit.
            while let first = rest.first, separators.contains(first), rest.count > 1, !rest.dropFirst().first!.isASCIIDigit {
                live.append(first)
                rest.removeFirst()
            }
            if !live.isEmpty, parse(live: live, candidate: candidate) != nil { return live }
        }
        // `app` + separator + key + `.ext`
        if let (stem, ext) = splitExtension(name), let inner = liveName(of: stem), inner != stem {
            let live = inner + ext
            if parse(live: live, candidate: candidate) != nil { return live }
        }
        return nil
    }

    static let separators: Set<Character> = [".", "-", "_"]

    /// A rotation key after `separator`: a small number after `.` is an index, a date-like run of at least
    /// six digits (with `-`, `_`, `.` between groups) is a date.
    static func key(_ key: String, separator: Character) -> RotationName? {
        guard separators.contains(separator), let first = key.first, first.isASCIIDigit else { return nil }
        if separator == ".", key.count <= 5, key.allSatisfy(\.isASCIIDigit), let number = Int(key) { return .numbered(number) }
        guard key.allSatisfy({ $0.isASCIIDigit || separators.contains($0) }), key.last!.isASCIIDigit,
              key.filter(\.isASCIIDigit).count >= 6 else { return nil }
        return .dated(digitGroups(key))
    }

    /// `2026-11-20_07-48` → [2026, 11, 20, 7, 48].
    public static func digitGroups<S: StringProtocol>(_ text: S) -> [Int] {
        text.split { !$0.isASCIIDigit }.compactMap { Int($0.prefix(18)) }
    }

    /// What every built-in rotated name of `live` starts with (`app` for `app.log`: `app.log.1`, `app.1.log`,
    /// `app-20261120.log`), so a folder's other names can be passed over without parsing them.
    public static func copyPrefix(of live: String) -> String {
        splitExtension(live)?.stem ?? live
    }

    /// `app.log` → (`app`, `.log`): a name with a non-numeric extension after a non-empty stem.
    static func splitExtension(_ name: String) -> (stem: String, ext: String)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[dot...]
        guard ext.count > 1, !ext.dropFirst().allSatisfy(\.isASCIIDigit) else { return nil }
        return (String(name[..<dot]), String(ext))
    }

    /// Oldest first.
    public static func < (a: RotationName, b: RotationName) -> Bool {
        switch (a, b) {
        case (.patterned(let x, let i), .patterned(let y, let j)): x == y ? i < j : x.lexicographicallyPrecedes(y)
        case (.dated(let x), .dated(let y)): x.lexicographicallyPrecedes(y)
        case (.numbered(let x), .numbered(let y)): x > y
        default: a.kindOrder < b.kindOrder
        }
    }

    private var kindOrder: Int {
        switch self {
        case .patterned: 0
        case .dated: 1
        case .numbered: 2
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
