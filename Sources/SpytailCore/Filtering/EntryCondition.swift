/// A compiled condition: SpyDashboard's four modes, an integration's prefixes, a message regex, a source,
/// a field test, and `all`/`any`/`not` of conditions. The one implementation of matching: rules' `match`,
/// filters, outputs' `where` and viewers' filters use it.
///
/// `@unchecked Sendable`: a condition holding a regex uses that regex's match data, so it is matched from one
/// thread at a time (each scan worker compiles the config again; a viewer's filter is its request's own).
public enum EntryCondition: @unchecked Sendable, CustomStringConvertible {
    case contains(ByteNeedle)
    case prefix(ByteNeedle)
    case regex(Regex, pattern: String)
    case tag(Int, name: String)
    case category(Int, name: String)
    case integration(name: String, prefixes: [ByteNeedle])
    /// Index into `CompiledConfig.sources`.
    case source(Int, name: String)
    case field(FieldCondition)
    case all([ConditionProbe])
    case any([ConditionProbe])
    indirect case not(EntryCondition)

    /// Whether `entry`, whose storage is `text`, meets the condition.
    @inlinable
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .contains(let needle): return needle.occurs(in: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .prefix(let needle): return needle.isPrefix(of: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .regex(let regex, _): return regex.matches(UnsafeBufferPointer(rebasing: text[entry.message]))
        case .tag(let index, _): return entry.tags.contains(index)
        case .category(let index, _): return entry.category == index
        case .integration(_, let prefixes):
            let message = UnsafeBufferPointer(rebasing: text[entry.message])
            for prefix in prefixes where prefix.isPrefix(of: message) { return true }
            return false
        case .source(let index, _): return entry.file.source == index
        case .field(let condition): return condition.matches(entry, text: text)
        case .all(let parts):
            return parts.withUnsafeBufferPointer { parts in
                entry.fields.withUnsafeBufferPointer { fields in
                    for k in parts.indices where !ConditionProbe.matches(parts.baseAddress! + k, entry, text: text, fields: fields) { return false }
                    return true
                }
            }
        case .any(let parts):
            return parts.withUnsafeBufferPointer { parts in
                entry.fields.withUnsafeBufferPointer { ConditionProbe.firstMatch(parts, entry, text: text, fields: $0) != nil }
            }
        case .not(let part): return !part.matches(entry, text: text)
        }
    }

    /// Whether the condition tests a field somewhere (a viewer then reads the record's fields).
    public var testsFields: Bool {
        switch self {
        case .field: true
        case .all(let parts), .any(let parts): parts.contains { $0.condition.testsFields }
        case .not(let part): part.testsFields
        default: false
        }
    }

    public var description: String {
        switch self {
        case .contains(let needle): "contains \"\(needle)\""
        case .prefix(let needle): "prefix \"\(needle)\""
        case .regex(_, let pattern): "regex \"\(pattern)\""
        case .tag(_, let name): "tag \(name)"
        case .category(_, let name): "category \(name)"
        case .integration(let name, _): "integration \(name)"
        case .source(_, let name): "source \(name)"
        case .field(let condition): condition.description
        case .all(let parts): "all(" + parts.map(\.description).joined(separator: ", ") + ")"
        case .any(let parts): "any(" + parts.map(\.description).joined(separator: ", ") + ")"
        case .not(let part): "not \(part.description)"
        }
    }
}
