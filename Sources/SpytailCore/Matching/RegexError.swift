/// Why a regular expression did not compile: PCRE2's message and the offset in the pattern.
public struct RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at offset \(offset)" }
}
