/// The config's `parse.pattern`, compiled: named groups `timestamp` and `message` fill those parts of
/// an entry; every other named group becomes a field.
///
/// A pattern that ends in a named group `(?<name>.*)$` is compiled without it: a line never holds a
/// `\n`, so `.*$` always matches the rest of the line, and the group is set to "end of the match to end
/// of the line" without PCRE2 walking every byte of the message (half the cost of a typical pattern).
///
/// A class: a parser holds it and calls it per line without copying its regex and tables (a struct held in
/// an enum case was copied, retained and released, on every line).
public final class LinePattern {
    public let regex: Regex
    let timestampGroup: Int?
    let messageGroup: Int?
    /// (group number, field name index: into `fieldNames`, or the config's vocabulary after `naming`). A
    /// constant: a class's `var` read per line cost a dynamic exclusivity check and a retain.
    let fieldGroups: [(group: Int, field: Int)]
    public let fieldNames: [String]
    /// The number of the trailing `(?<name>.*)$` group that was taken out of the compiled pattern.
    let tailGroup: Int?

    public init(_ pattern: String) throws(RegexError) {
        if let (head, name) = Self.splitTail(pattern), let compiled = try? Regex(head + "(?<\(name)>)") {
            regex = compiled
            tailGroup = compiled.namedGroups.first { $0.name == name }?.number
        } else {
            regex = try Regex(pattern)
            tailGroup = nil
        }
        let named = regex.namedGroups
        timestampGroup = named.first { $0.name == "timestamp" }?.number
        messageGroup = named.first { $0.name == "message" }?.number
        let others = named.filter { $0.name != "timestamp" && $0.name != "message" }
        fieldNames = others.map(\.name)
        fieldGroups = others.enumerated().map { ($0.element.number, $0.offset) }
    }

    private init(regex: Regex, timestampGroup: Int?, messageGroup: Int?, fieldGroups: [(group: Int, field: Int)],
                 fieldNames: [String], tailGroup: Int?) {
        (self.regex, self.timestampGroup, self.messageGroup) = (regex, timestampGroup, messageGroup)
        (self.fieldGroups, self.fieldNames, self.tailGroup) = (fieldGroups, fieldNames, tailGroup)
    }

    /// The same pattern with its fields named by `indices[k]` (their index in the config's vocabulary) instead
    /// of `k`, their index in `fieldNames`: a config with several regex parsers has one vocabulary for all.
    public func naming(_ indices: [Int]) -> LinePattern {
        precondition(indices.count == fieldNames.count)
        return LinePattern(regex: regex, timestampGroup: timestampGroup, messageGroup: messageGroup,
                           fieldGroups: fieldGroups.map { ($0.group, indices[$0.field]) }, fieldNames: fieldNames, tailGroup: tailGroup)
    }

    /// Matches the head line (`text[..<headLength]`) and writes the parts into `entry`.
    /// Returns false, leaving `entry` as it was, when the line does not match.
    public func apply(to entry: inout SpyEntry) -> Bool {
        var fields: [FieldValue] = []
        swap(&fields, &entry.fields)  // reuse the entry's field storage without copying
        defer { swap(&fields, &entry.fields) }
        if !fields.isEmpty { fields.removeAll(keepingCapacity: true) }  // the parser's reset emptied them already
        let headLength = entry.headLength
        let matched = entry.text.withUnsafeBufferPointer { regex.matches(UnsafeBufferPointer(rebasing: $0[..<headLength])) }
        guard matched else { return false }
        entry.timestamp = timestampGroup.flatMap { group($0, headLength) }
        entry.message = messageGroup.flatMap { group($0, headLength) } ?? 0..<headLength
        fieldGroups.withUnsafeBufferPointer { groups in
            for k in groups.indices {
                if let range = group(groups[k].group, headLength) { fields.append(FieldValue(name: groups[k].field, range: range)) }
            }
        }
        return true
    }

    /// Range of group `number` in the last match (the trailing group reaches the end of the head line).
    private func group(_ number: Int, _ headLength: Int) -> Range<Int>? {
        guard number == tailGroup else { return regex.group(number) }
        return regex.group(number).map { $0.lowerBound..<headLength }
    }

    /// `(head, name)` when `pattern` is `head` + `(?<name>.*)$` and dropping the tail cannot change what
    /// matches: no inline option that lets `.` match a newline, no alternation at the top level that the
    /// tail would belong to.
    static func splitTail(_ pattern: String) -> (head: String, name: String)? {
        guard pattern.hasSuffix(".*)$"), !pattern.contains("(?s"), !pattern.contains("(*") else { return nil }
        let body = pattern.dropLast(4)  // without ".*)$"
        guard let open = body.ranges(of: "(?<").last, body[open.upperBound...].hasSuffix(">") else { return nil }
        let name = body[open.upperBound..<body.index(before: body.endIndex)]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        let head = String(body[..<open.lowerBound])
        guard !head.hasSuffix("\\") || head.hasSuffix("\\\\") else { return nil }
        return Self.topLevelAlternation(head) ? nil : (head, String(name))
    }

    /// Whether `pattern` has a `|` outside every group (then a suffix would belong to one branch only).
    static func topLevelAlternation(_ pattern: String) -> Bool {
        var depth = 0, escaped = false, inClass = false
        for ch in pattern {
            if escaped { escaped = false; continue }
            switch ch {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            case "|" where !inClass && depth == 0: return true
            default: break
            }
        }
        return false
    }
}
