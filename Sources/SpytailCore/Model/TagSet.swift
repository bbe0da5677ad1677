/// The tags of an entry: a bit set over the config's tag rules (at most 64, checked by the config).
public struct TagSet: Sendable, Hashable {
    public static let capacity = 64
    public var bits: UInt64

    public init(bits: UInt64 = 0) { self.bits = bits }

    public var isEmpty: Bool { bits == 0 }

    @inlinable public func contains(_ index: Int) -> Bool { bits & (1 << UInt64(index)) != 0 }
    @inlinable public mutating func insert(_ index: Int) { bits |= 1 << UInt64(index) }

    /// Tag indices in ascending order (config order).
    public var indices: [Int] { (0..<Self.capacity).filter { contains($0) } }
}
