/// A named value captured by the parse pattern (a named group other than `timestamp`/`message`).
public struct FieldValue: Sendable, Hashable {
    /// Index into `Vocabulary.fieldNames`.
    public var name: Int
    /// Range in `SpyEntry.text`.
    public var range: Range<Int>

    public init(name: Int, range: Range<Int>) {
        self.name = name
        self.range = range
    }
}
