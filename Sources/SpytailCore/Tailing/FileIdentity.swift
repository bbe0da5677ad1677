/// Which file on disk, whatever it is called now: device and inode number.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    public var description: String { "\(device):\(inode)" }
}
