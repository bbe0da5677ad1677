/// A condition as the per-line path holds it. Reading a condition out of an array to match it copied it: a
/// retain and a release of its payload per rule and line, a fifth of W1's CPU once rules became conditions.
/// A probe holds only plain words for the common rules — a field test through an unmanaged reference, a
/// message `contains`/`prefix` through its bytes — and reaches any other condition through an unmanaged
/// reference to the holder that owns it all.
public struct ConditionProbe: @unchecked Sendable, CustomStringConvertible {
    enum Kind: UInt8 { case field, contains, prefix, other }

    /// Owns the condition and the needle's bytes for the references below.
    private let owner: Holder
    private let kind: Kind
    private let field: Unmanaged<FieldCondition>?
    private let needle: UnsafeBufferPointer<UInt8>
    private let holder: Unmanaged<Holder>

    final class Holder {
        let condition: EntryCondition
        let needle: UnsafeMutableBufferPointer<UInt8>
        init(_ condition: EntryCondition, needle bytes: [UInt8]) {
            self.condition = condition
            needle = .allocate(capacity: max(1, bytes.count))
            _ = needle.initialize(from: bytes)
        }
        deinit { needle.deallocate() }
    }

    public init(_ condition: EntryCondition) {
        var bytes: [UInt8] = []
        switch condition {
        case .field(let test): (kind, field) = (.field, .passUnretained(test))
        case .contains(let n): (kind, field, bytes) = (.contains, nil, n.bytes)
        case .prefix(let n): (kind, field, bytes) = (.prefix, nil, n.bytes)
        default: (kind, field) = (.other, nil)
        }
        owner = Holder(condition, needle: bytes)
        needle = UnsafeBufferPointer(rebasing: owner.needle[..<bytes.count])
        holder = .passUnretained(owner)
    }

    public var condition: EntryCondition { owner.condition }

    @inline(__always)
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .field: return field.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.matches(entry, text: text) }
        case .contains: return ByteNeedle.occurs(needle, in: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .prefix: return ByteNeedle.isPrefix(needle, of: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .other: return holder._withUnsafeGuaranteedRef { $0.condition.matches(entry, text: text) }
        }
    }

    public var description: String { owner.condition.description }
}
