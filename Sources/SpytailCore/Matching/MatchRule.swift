/// A rule's `match`: a matcher applied to the message or to one captured field.
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
