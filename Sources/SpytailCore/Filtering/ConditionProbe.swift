/// A condition as the per-line path holds it. Reading a condition out of an array to match it copied it: a
/// retain and a release of its payload per rule and line, a fifth of W1's CPU once rules became conditions.
/// A probe holds only plain words for the common rules — a field test as pointers into its condition, a
/// message `contains`/`prefix` through its bytes — and reaches any other condition through an unmanaged
/// reference to the holder that owns it all.
public struct ConditionProbe: @unchecked Sendable, CustomStringConvertible {
    enum Kind: UInt8 { case rule, field, contains, prefix, other }

    /// Owns the condition and the needle's bytes for the references below.
    private let owner: Holder
    private let kind: Kind
    private let field: UnsafePointer<FieldTest>?
    private let needle: UnsafeBufferPointer<UInt8>
    private let holder: Unmanaged<Holder>
    static var noRule: MatchRule { MatchRule(subject: .message, matcher: .prefix(ByteNeedle(bytes: []))) }

    final class Holder {
        let condition: EntryCondition
        /// The test as a plain rule (`kind == .rule`), read in place through the holder.
        let rule: MatchRule
        let needle: UnsafeMutableBufferPointer<UInt8>
        init(_ condition: EntryCondition, rule: MatchRule, needle bytes: [UInt8]) {
            self.condition = condition
            self.rule = rule
            needle = .allocate(capacity: max(1, bytes.count))
            _ = needle.initialize(from: bytes)
        }
        deinit { needle.deallocate() }
    }

    /// `plainFields`: no source of the config reads keys from its lines (json, logfmt), so a field named by one
    /// component is a regex group, found by its vocabulary index.
    public init(_ condition: EntryCondition, plainFields: Bool = false) {
        var bytes: [UInt8] = []
        var rule = Self.noRule
        switch condition {
        case .field(let test) where plainFields && test.path.depth == 1 && test.named != nil && test.plainMatcher != nil:
            (kind, field) = (.rule, nil)
            rule = MatchRule(subject: .field(test.named!), matcher: test.plainMatcher!)
        case .regex(let regex, _):
            (kind, field) = (.rule, nil)
            rule = MatchRule(subject: .message, matcher: .regex(regex))
        case .field(let test): (kind, field) = (.field, test.test)
        case .contains(let n): (kind, field, bytes) = (.contains, nil, n.bytes)
        case .prefix(let n): (kind, field, bytes) = (.prefix, nil, n.bytes)
        default: (kind, field) = (.other, nil)
        }
        owner = Holder(condition, rule: rule, needle: bytes)
        needle = UnsafeBufferPointer(rebasing: owner.needle[..<bytes.count])
        holder = .passUnretained(owner)
    }

    public var condition: EntryCondition { owner.condition }

    @inline(__always)
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        if kind == .field { return entry.fields.withUnsafeBufferPointer { FieldTest.matches(field.unsafelyUnwrapped, fields: $0, text: text) } }
        return matches(entry, text: text, fields: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// The same, with the entry's fields already open as `fields` (a caller testing several probes opens
    /// them once: opening them per test retained and released their storage each time).
    @inline(__always)
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, fields: UnsafeBufferPointer<FieldValue>) -> Bool {
        switch kind {
        case .rule: return holder._withUnsafeGuaranteedRef { $0.rule.matches(entry, text: text) }
        case .field: return FieldTest.matches(field.unsafelyUnwrapped, fields: fields, text: text)
        case .contains: return ByteNeedle.occurs(needle, in: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .prefix: return ByteNeedle.isPrefix(needle, of: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .other: return holder._withUnsafeGuaranteedRef { $0.condition.matches(entry, text: text) }
        }
    }

    public var description: String { owner.condition.description }
}
