/// The config's `parse.pattern`, compiled: named groups `timestamp` and `message` fill those parts of
/// an entry; every other named group becomes a field.
public struct LinePattern {
    public let regex: Regex
    let timestampGroup: Int?
    let messageGroup: Int?
    /// (group number, index into `fieldNames`).
    let fieldGroups: [(group: Int, field: Int)]
    public let fieldNames: [String]

    public init(_ pattern: String) throws(RegexError) {
        regex = try Regex(pattern)
        let named = regex.namedGroups
        timestampGroup = named.first { $0.name == "timestamp" }?.number
        messageGroup = named.first { $0.name == "message" }?.number
        let others = named.filter { $0.name != "timestamp" && $0.name != "message" }
        fieldNames = others.map(\.name)
        fieldGroups = others.enumerated().map { ($0.element.number, $0.offset) }
    }

    /// Matches the head line (`text[..<headLength]`) and writes the parts into `entry`.
    /// Returns false, leaving `entry` as it was, when the line does not match.
    public func apply(to entry: inout SpyEntry) -> Bool {
        var fields: [FieldValue] = []
        swap(&fields, &entry.fields)  // reuse the entry's field storage without copying
        defer { swap(&fields, &entry.fields) }
        fields.removeAll(keepingCapacity: true)
        let head = entry.headLength
        let matched = entry.text.withUnsafeBufferPointer { regex.matches(UnsafeBufferPointer(rebasing: $0[..<head])) }
        guard matched else { return false }
        entry.timestamp = timestampGroup.flatMap(regex.group)
        entry.message = messageGroup.flatMap(regex.group) ?? 0..<head
        for (group, field) in fieldGroups {
            if let range = regex.group(group) { fields.append(FieldValue(name: field, range: range)) }
        }
        return true
    }
}
