/// A compiled condition: SpyDashboard's four modes, an integration's prefixes, a message regex, a source,
/// a field test, and `all`/`any`/`not` of conditions. The one implementation of matching: rules' `match`,
/// filters, outputs' `where` and viewers' filters use it.
///
/// `@unchecked Sendable`: a condition holding a regex uses that regex's match data, so it is matched from one
/// thread at a time (each scan worker compiles the config again); viewers' conditions hold no regex.
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
                for k in parts.indices where !parts[k].matches(entry, text: text) { return false }
                return true
            }
        case .any(let parts):
            return parts.withUnsafeBufferPointer { parts in
                for k in parts.indices where parts[k].matches(entry, text: text) { return true }
                return false
            }
        case .not(let part): return !part.matches(entry, text: text)
        }
    }

    /// Matching on what a viewer keeps of an entry (category, tags, message): the modes a view filter takes.
    /// Source and field conditions, which need the whole entry, do not match here.
    public func matches(category: Int, tags: TagSet, message: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .contains(let needle): return needle.occurs(in: message)
        case .prefix(let needle): return needle.isPrefix(of: message)
        case .regex(let regex, _): return regex.matches(message)
        case .tag(let index, _): return tags.contains(index)
        case .category(let index, _): return category == index
        case .integration(_, let prefixes):
            for prefix in prefixes where prefix.isPrefix(of: message) { return true }
            return false
        case .source, .field: return false
        case .all(let parts): return parts.allSatisfy { $0.condition.matches(category: category, tags: tags, message: message) }
        case .any(let parts): return parts.contains { $0.condition.matches(category: category, tags: tags, message: message) }
        case .not(let part): return !part.matches(category: category, tags: tags, message: message)
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
