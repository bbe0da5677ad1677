/// A file being read: its path as given or discovered, the fingerprint of its content, and the fingerprint its
/// record ids carry (the same but after a power loss cut the content back: `Fingerprint.forIDs(epoch:)`).
/// Shared by reference by all the entries read from it; its JSON form is built once.
public final class SourceFile: Sendable {
    public let path: String
    public let fingerprint: Fingerprint
    /// The fingerprint its record ids carry: `fingerprint` in the content's epoch (`ContentMarks`).
    public let idFingerprint: Fingerprint
    /// `path` already escaped for a JSON string, without quotes.
    public let escapedPath: [UInt8]
    /// Index of the config's source this file belongs to (`CompiledConfig.sources`), or `SourceFile.unnamed`
    /// for a file named on the command line that no source takes: it is read with the default `parse`.
    public let source: Int

    public static let unnamed = -1

    public init(path: String, fingerprint: Fingerprint, source: Int = SourceFile.unnamed, epoch: Int = 0) {
        self.path = path
        self.fingerprint = fingerprint
        idFingerprint = fingerprint.forIDs(epoch: epoch)
        self.source = source
        let buffer = OutputBuffer(capacity: path.utf8.count * 2 + 8)
        var path = path
        path.withUTF8 { buffer.appendJSONEscaped($0) }
        escapedPath = buffer.array
    }
}
