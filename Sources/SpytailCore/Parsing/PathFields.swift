/// A source's `pathFields`: a regex with named groups matched against each file's path, whose groups every
/// entry of the file carries as one object under `pathFieldsKey` — `/var/log/pods/shop_web-1_<uid>/app/0.log`
/// gives `k8s: {"namespace":"shop","pod":"web-1",…}`. The object is built once per file; a path the regex
/// does not match adds nothing. A class: it remembers the last file's object (entries come file by file),
/// and is used from one thread at a time, as its `RuleSet` is.
public final class PathFields {
    public let regex: Regex
    public let key: String
    private let keyBytes: [UInt8]
    /// Each named group in the regex's order: its name, the name JSON-escaped, its number.
    private let groups: [(name: String, escaped: [UInt8], number: Int)]
    @exclusivity(unchecked) private var last: (file: SourceFile, bytes: [UInt8]?)?

    public init(regex: Regex, key: String) {
        self.regex = regex
        self.key = key
        keyBytes = Array(key.utf8)
        groups = regex.namedGroups.sorted { $0.number < $1.number }.map { ($0.name, Self.escaped(Array($0.name.utf8)), $0.number) }
    }

    /// The group names, in the regex's order.
    public var groupNames: [String] { groups.map(\.name) }

    /// The groups `path` gives (a group that took no part in the match is left out), or nil when the regex does
    /// not match it.
    public func values(in path: String) -> [(name: String, value: [UInt8])]? {
        let subject = Array(path.utf8)
        guard subject.withUnsafeBufferPointer({ regex.matches($0) }) else { return nil }
        return groups.compactMap { group in regex.group(group.number).map { (group.name, Array(subject[$0])) } }
    }

    /// Adds the file's object to `entry` as a field (after the entry's lines, like a decoded value).
    public func apply(to entry: inout SpyEntry) {
        guard let bytes = bytes(for: entry.file) else { return }
        let range = bytes.withUnsafeBufferPointer { entry.appendDecoded($0) }
        let valueStart = range.lowerBound + keyBytes.count
        entry.fields.append(FieldValue(textKey: range.lowerBound..<valueStart, range: valueStart..<range.upperBound, kind: .object))
    }

    /// The key, then the object (`k8s{"namespace":"shop",…}`), or nil when the path does not match.
    func bytes(for file: SourceFile) -> [UInt8]? {
        if let last, last.file === file { return last.bytes }
        let built = build(file.path)
        last = (file, built)
        return built
    }

    private func build(_ path: String) -> [UInt8]? {
        guard let values = values(in: path) else { return nil }
        var out = keyBytes
        out.append(UInt8(ascii: "{"))
        for (k, value) in values.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: groups.first { $0.name == value.name }!.escaped)
            out.append(contentsOf: Array("\":\"".utf8))
            out.append(contentsOf: Self.escaped(value.value))
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        let buffer = OutputBuffer(capacity: bytes.count * 6 + 8)
        bytes.withUnsafeBufferPointer { buffer.appendJSONEscaped($0) }
        return buffer.array
    }
}
