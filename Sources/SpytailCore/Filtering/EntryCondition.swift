/// A compiled filter condition: SpyDashboard's four modes, and an integration's prefixes.
public enum EntryCondition: Sendable, CustomStringConvertible {
    case contains(ByteNeedle)
    case prefix(ByteNeedle)
    case tag(Int, name: String)
    case category(Int, name: String)
    case integration(name: String, prefixes: [ByteNeedle])

    @inlinable
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(category: entry.category, tags: entry.tags, message: UnsafeBufferPointer(rebasing: text[entry.message]))
    }

    /// The one implementation of matching: config filters, outputs' `where` and viewers' filters use it.
    @inlinable
    public func matches(category: Int, tags: TagSet, message: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .contains(let needle): return needle.occurs(in: message)
        case .prefix(let needle): return needle.isPrefix(of: message)
        case .tag(let index, _): return tags.contains(index)
        case .category(let index, _): return category == index
        case .integration(_, let prefixes):
            for prefix in prefixes where prefix.isPrefix(of: message) { return true }
            return false
        }
    }

    public var description: String {
        switch self {
        case .contains(let needle): "contains \"\(needle)\""
        case .prefix(let needle): "prefix \"\(needle)\""
        case .tag(_, let name): "tag \(name)"
        case .category(_, let name): "category \(name)"
        case .integration(let name, _): "integration \(name)"
        }
    }
}
