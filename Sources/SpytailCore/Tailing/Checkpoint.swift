/// Where reading of one file stands, saved so a restart resumes there: the file's identity (device and
/// inode, and the fingerprint of its content), the decompressed offset of the first byte not yet
/// delivered, and a hash of the bytes just before it (a file replaced or rewritten in place has other
/// bytes there). With it, where reading stood at earlier saves (`anchors`): what a restart reads on from when a
/// power loss cut the file back behind the offset.
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
    /// Where reading of this content stood at earlier saves, newest first (`AnchorTrail`): when the file no longer
    /// holds the bytes before `offset` (a power loss cut it back to what the disk had, and the app wrote on from
    /// there), reading goes on from the newest one whose bytes are still there.
    public var anchors: [Anchor] = []

    public static let tailLength = 256
    /// The `tailHash` of a position whose bytes before it were not hashed (the newest gzip copy of a chain read
    /// whole through the block path): nothing is checked against it.
    public static let unknownTail: UInt64 = 0

    /// An earlier position: an offset where an entry started, and the hash of the bytes before it.
    public struct Anchor: Sendable, Equatable {
        public var offset: Int64
        public var tailHash: UInt64

        public init(offset: Int64, tailHash: UInt64) {
            self.offset = offset
            self.tailHash = tailHash
        }
    }

    public init(path: String, identity: FileIdentity, fingerprint: Fingerprint, offset: Int64, tailHash: UInt64) {
        self.path = path
        self.identity = identity
        self.fingerprint = fingerprint
        self.offset = offset
        self.tailHash = tailHash
    }
}
