/// A file being read: its path as given or discovered, and the fingerprint of its content.
/// Shared by reference by all the entries read from it; its JSON form is built once.
public final class SourceFile: Sendable {
    public let path: String
    public let fingerprint: Fingerprint
    /// `path` already escaped for a JSON string, without quotes.
    public let escapedPath: [UInt8]

    public init(path: String, fingerprint: Fingerprint) {
        self.path = path
        self.fingerprint = fingerprint
        let buffer = OutputBuffer(capacity: path.utf8.count * 2 + 8)
        var path = path
        path.withUTF8 { buffer.appendJSONEscaped($0) }
        escapedPath = buffer.array
    }
}
