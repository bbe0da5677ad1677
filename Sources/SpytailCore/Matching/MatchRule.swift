/// A `contains`, `prefix` or `regex` test on the message or on one regex group, the rules every config had
/// before structured sources: `ConditionProbe` matches such a condition this way (a field found by its
/// vocabulary index, the matcher read in place) when no source of the config reads keys from its lines.
public struct MatchRule {
    /// Which part of the entry the matcher looks at.
    public enum Subject: Equatable {
        case message
        /// Index into `Vocabulary.fieldNames`.
        case field(Int)
    }

    public let subject: Subject
    public let matcher: ByteMatcher

    public init(subject: Subject, matcher: ByteMatcher) {
        self.subject = subject
        self.matcher = matcher
    }

    /// Whether the rule matches `entry`, whose storage is `text`. A field the pattern did not capture
    /// never matches.
    @inlinable
    public func matches(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch subject {
        case .message:
            return matcher.matches(UnsafeBufferPointer(rebasing: text[entry.message]))
        case .field(let name):
            for field in entry.fields where field.name == name {
                return matcher.matches(UnsafeBufferPointer(rebasing: text[field.range]))
            }
            return false
        }
    }
}
