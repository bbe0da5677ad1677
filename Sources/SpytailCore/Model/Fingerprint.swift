/// Identity of a file's content: a 64-bit FNV-1a hash of its first decompressed line
/// (newline included, at most `Fingerprint.headLimit` bytes).
///
/// The same content has the same fingerprint whether it is read as `app.log`, `app.log.1` or
/// `app.log.1.gz`, which is what makes entry ids stable across rotation and compression.
public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    public static let headLimit = 4096

    public let value: UInt64

    public init(value: UInt64) { self.value = value }

    /// The fingerprint of a stream whose first bytes are `head`, or nil while the head is too short to
    /// decide (no newline yet and fewer than `headLimit` bytes) and the stream may still grow.
    public static func of(head: UnsafeBufferPointer<UInt8>, complete: Bool) -> Fingerprint? {
        let limit = min(head.count, headLimit)
        var length = limit
        if let newline = head[..<limit].firstIndex(of: 0x0A) {
            length = newline + 1
        } else if limit < headLimit && !complete {
            return nil
        }
        guard length > 0 else { return nil }
        return Fingerprint(value: fnv1a(UnsafeBufferPointer(rebasing: head[..<length])))
    }

    /// How many head bytes the fingerprint covers, given the same rules as `of(head:complete:)`.
    public static func coveredLength(head: UnsafeBufferPointer<UInt8>) -> Int {
        let limit = min(head.count, headLimit)
        if let newline = head[..<limit].firstIndex(of: 0x0A) { return newline + 1 }
        return limit
    }

    public static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The fingerprint the record ids of this content carry in `epoch` (`ContentMarks`, saved as `SavedPositions.epochs`): itself in epoch 0,
    /// so ids are what they always were; after a power loss cut the content back and it was written anew, a
    /// mix of both (SplitMix64's finaliser), so a line written where a cut-away one was gets another id.
    public func forIDs(epoch: Int) -> Fingerprint {
        guard epoch > 0 else { return self }
        var z = value &+ UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Fingerprint(value: z ^ (z >> 31))
    }

    /// 16 lower-case hex digits.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
