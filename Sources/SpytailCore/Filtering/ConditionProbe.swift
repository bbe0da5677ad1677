/// A condition as the per-line path holds it. Reading a condition out of an array to match it copied it: a
/// retain and a release of its payload per rule and line, a fifth of W1's CPU once rules became conditions.
/// A probe holds only plain words for the common rules — a field test as pointers into its condition, a
/// message `contains`/`prefix` through its bytes, a category, tag or source by its index — and reaches any
/// other condition through an unmanaged reference to the holder that owns it all.
public struct ConditionProbe: @unchecked Sendable, CustomStringConvertible {
    enum Kind: UInt8 { case rule, field, contains, prefix, category, tag, source, other }

    /// Owns the condition and the needle's bytes for the references below.
    private let owner: Holder
    private let kind: Kind
    private let field: UnsafePointer<FieldTest>?
    private let needle: UnsafeBufferPointer<UInt8>
    /// The category, tag or source index of those kinds.
    private let index: Int
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

    /// Matched as a plain rule (a regex group by its index, the message), not through the fields.
    var matchesPlainly: Bool { kind == .rule }

    /// `plainFields`: no source of the config reads keys from its lines (json, logfmt), so a field named by one
    /// component is a regex group, found by its vocabulary index.
    public init(_ condition: EntryCondition, plainFields: Bool = false) {
        var bytes: [UInt8] = []
        var rule = Self.noRule
        var index = 0
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
        case .category(let i, _): (kind, field, index) = (.category, nil, i)
        case .tag(let i, _): (kind, field, index) = (.tag, nil, i)
        case .source(let i, _): (kind, field, index) = (.source, nil, i)
        default: (kind, field) = (.other, nil)
        }
        self.index = index
        owner = Holder(condition, rule: rule, needle: bytes)
        needle = UnsafeBufferPointer(rebasing: owner.needle[..<bytes.count])
        holder = .passUnretained(owner)
    }

    public var condition: EntryCondition { owner.condition }

    /// Whether the probe at `probe` matches `entry` (storage `text`, fields already open as `fields`: a caller
    /// testing several probes opens them once). Static on an address: calling a method on a probe read out of
    /// an array copied it, a retain and a release of its owner per rule and line.
    @inline(__always)
    public static func matches(_ probe: UnsafePointer<ConditionProbe>, _ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>,
                               fields: UnsafeBufferPointer<FieldValue>) -> Bool {
        switch probe.pointee.kind {
        case .rule: return probe.pointee.holder._withUnsafeGuaranteedRef { $0.rule.matches(entry, text: text) }
        case .field: return FieldTest.matches(probe.pointee.field.unsafelyUnwrapped, fields: fields, text: text)
        case .contains: return ByteNeedle.occurs(probe.pointee.needle, in: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .prefix: return ByteNeedle.isPrefix(probe.pointee.needle, of: UnsafeBufferPointer(rebasing: text[entry.message]))
        case .category: return entry.category == probe.pointee.index
        case .tag: return entry.tags.contains(probe.pointee.index)
        case .source: return entry.file.source == probe.pointee.index
        case .other: return probe.pointee.holder._withUnsafeGuaranteedRef { $0.condition.matches(entry, text: text) }
        }
    }

    /// The first of `probes` that matches `entry`, if any. A run of field tests on the same field (categories from
    /// `level`: `equals ERROR`, `equals WARNING`, …) looks the field up once: `sharesField[k]` says probe `k` tests
    /// the field probe `k - 1` tested (see `sharingFields`; empty: look each one up).
    @inline(__always)
    public static func firstMatch(_ probes: UnsafeBufferPointer<ConditionProbe>, _ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>,
                                  fields: UnsafeBufferPointer<FieldValue>, sharesField: UnsafeBufferPointer<Bool> = UnsafeBufferPointer(start: nil, count: 0)) -> Int? {
        guard let base = probes.baseAddress else { return nil }
        var looked: FieldValue? = nil
        for k in probes.indices {
            let probe = base + k
            if probe.pointee.kind == .field {
                let test = probe.pointee.field.unsafelyUnwrapped
                if k >= sharesField.count || !sharesField[k] { looked = FieldTest.lookup(test, fields: fields, text: text) }
                if FieldTest.holds(test, for: looked, text: text) { return k }
            } else if matches(probe, entry, text: text, fields: fields) {
                return k
            }
        }
        return nil
    }

    /// For each of `probes`: whether it is a field test on the field the probe before it tests.
    public static func sharingFields(_ probes: [ConditionProbe]) -> [Bool] {
        probes.indices.map { k in
            guard k > 0, probes[k].kind == .field, probes[k - 1].kind == .field else { return false }
            return FieldTest.samePath(probes[k].field!, probes[k - 1].field!)
        }
    }

    public var description: String { owner.condition.description }
}
