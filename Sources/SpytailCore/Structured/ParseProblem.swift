/// Why a line did not parse in its source's format, and where: the entry keeps the whole line as its
/// message and carries this as `parseError` (`json: unexpected byte 'x' at byte 17`).
public struct ParseProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Format: String, Sendable { case json, logfmt, regex, cri, docker }

    public enum Reason: Sendable, Equatable {
        case notAnObject
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case badEscape
        case controlCharacter
        case invalidUTF8
        case badNumber
        case tooDeep
        case trailingBytes
        case unterminatedQuote
        case noPairs
        case noMatch
        case truncated
        /// A container runtime's line without a valid envelope part.
        case badEnvelope(EnvelopePart)
    }

    /// The parts of a container runtime's line (a plain enum: a problem travels with every line, so it holds
    /// nothing to retain).
    public enum EnvelopePart: UInt8, Sendable {
        case time, stream, tag, log

        var description: String {
            switch self {
            case .time: "RFC 3339 time"
            case .stream: "stream (stdout or stderr)"
            case .tag: "tag (P or F)"
            case .log: "log (a string)"
            }
        }
    }

    public var format: Format
    public var reason: Reason
    /// Byte offset in the line.
    public var offset: Int

    public init(_ format: Format, _ reason: Reason, at offset: Int) {
        self.format = format
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch reason {
        case .notAnObject: what = "not an object"
        case .unexpectedEnd: what = "the line ends inside a value"
        case .unexpectedByte(let b):
            what = b >= 0x21 && b < 0x7F ? "unexpected '\(Character(Unicode.Scalar(b)))'" : "unexpected byte 0x\(String(b, radix: 16))"
        case .badEscape: what = "invalid escape"
        case .controlCharacter: what = "control character in a string"
        case .invalidUTF8: what = "invalid UTF-8"
        case .badNumber: what = "invalid number"
        case .tooDeep: what = "nested deeper than \(JSONLineScanner.maxDepth)"
        case .trailingBytes: what = "bytes after the object"
        case .unterminatedQuote: what = "unterminated quoted value"
        case .noPairs: what = "no key=value pair"
        case .noMatch: what = "the pattern does not match"
        case .truncated: what = "the line was cut at maxLineBytes"
        case .badEnvelope(let part): what = "no valid \(part.description)"
        }
        return "\(format.rawValue): \(what) at byte \(offset)"
    }
}
