/// One field of an entry: a name and a typed value, both ranges into `SpyEntry.text` (nothing copied).
///
/// A regex parser's fields are named by index into `Vocabulary.fieldNames`; a JSON or logfmt line's keys
/// are read from the line itself (`name == FieldValue.keyed`). JSON values are kept as written and are
/// valid JSON (the line was validated), so outputs copy them.
public struct FieldValue: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        /// Raw bytes (a regex group, a logfmt value, a decoded string): escaped when written as JSON.
        case text
        /// A JSON string's content as written, without its quotes (`escaped`: it holds a `\`).
        case string
        case number, `true`, `false`, null
        /// A JSON object or array as written.
        case object, array

        /// A value that is not a string of some kind.
        public var isJSONLiteral: Bool { self != .text && self != .string }
    }

    /// `name` of a field whose key is in the line.
    public static let keyed = -1

    /// Index into `Vocabulary.fieldNames`, or `keyed`.
    public var name: Int
    /// The key's bytes in `text` (keyed fields only).
    public var key: Range<Int> = 0..<0
    /// The key is JSON string content (a JSON line) rather than raw bytes (logfmt).
    public var keyIsJSON = false
    /// The JSON key holds an escape.
    public var keyEscaped = false
    /// The value's bytes in `text` (a string's without quotes).
    public var range: Range<Int>
    public var kind: Kind = .text
    /// A `.string` value holds an escape.
    public var escaped = false

    /// A named raw value (a regex group, a gap record's field).
    public init(name: Int, range: Range<Int>, kind: Kind = .text) {
        self.name = name
        self.range = range
        self.kind = kind
    }

    /// A JSON object member.
    public init(key: Range<Int>, keyEscaped: Bool, range: Range<Int>, kind: Kind) {
        name = Self.keyed
        self.key = key
        keyIsJSON = true
        self.keyEscaped = keyEscaped
        self.range = range
        self.kind = kind
    }

    /// A key and value read from raw bytes (logfmt).
    public init(textKey: Range<Int>, range: Range<Int>, kind: Kind = .text) {
        name = Self.keyed
        key = textKey
        self.range = range
        self.kind = kind
    }
}
