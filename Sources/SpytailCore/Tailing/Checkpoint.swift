/// Where reading of one file stands, saved so a restart resumes there: the file's identity (device and
/// inode, and the fingerprint of its content), the decompressed offset of the first byte not yet
/// delivered, and a hash of the bytes just before it (a file replaced or rewritten in place has other
/// bytes there).
public struct Checkpoint: Sendable, Equatable {
    public var path: String
    public var identity: FileIdentity
    public var fingerprint: Fingerprint
    public var offset: Int64
    /// FNV-1a of the (up to) `Checkpoint.tailLength` bytes before `offset`.
    public var tailHash: UInt64
    /// A rotated-away file that was read to its end and closed while quiet: read again if it grows, and if
    /// it is gone at a restart, nothing was lost (no `vanished` gap).
    public var drained = false

    public static let tailLength = 256

    public init(path: String, identity: FileIdentity, fingerprint: Fingerprint, offset: Int64, tailHash: UInt64) {
        self.path = path
        self.identity = identity
        self.fingerprint = fingerprint
        self.offset = offset
        self.tailHash = tailHash
    }
}
