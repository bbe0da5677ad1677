import CIsal

/// Places inside a gzip file where inflating can start again without starting from the file's beginning, as
/// zlib's `zran` and indexed_gzip keep: `spytail explore` records one every `spacing` bytes of decompressed
/// output while it indexes a gzip file, so showing an entry near the end of a 40 MB member inflates at most
/// `spacing` bytes instead of the whole member.
///
/// A point is a copy of ISA-L's inflate state taken between two calls (its Huffman tables, its bit buffer, its
/// running CRC and the last 32 KiB of output it keeps for back-references) with the compressed offset it had
/// reached: restored into a reader over the same file, it inflates on byte for byte as the first pass did, CRC
/// check included. About 55 KB a point: 4 MiB apart, 14 MB for a GB of decompressed logs.
public final class GzipSeekPoints: Sendable {
    public struct Point: Sendable {
        /// Decompressed bytes before the point.
        public let uncompressedOffset: Int64
        /// Compressed offset of the first byte the restored inflater reads.
        public let compressedOffset: Int64
        /// The inflate state, up to the bytes of its output buffer in use.
        let state: [UInt8]
    }

    /// Decompressed bytes between points.
    public let spacing: Int64
    private let points = Locked<[Point]>([])

    public init(spacing: Int64) {
        precondition(spacing > 0, "seek points need a positive spacing")
        self.spacing = spacing
    }

    public var count: Int { points.withLock { $0.count } }

    /// Bytes the points hold.
    public var memoryBytes: Int { points.withLock { $0.reduce(0) { $0 + $1.state.count } } }

    /// Offers a point at `uncompressedOffset`; kept when it is `spacing` past the last one.
    func offer(at uncompressedOffset: Int64, _ take: () -> Point?) {
        let due = points.withLock { ($0.last?.uncompressedOffset ?? 0) + spacing <= uncompressedOffset }
        guard due, let point = take() else { return }
        points.withLock { $0.append(point) }
    }

    /// The last point at or before `offset`.
    public func point(atOrBefore offset: Int64) -> Point? {
        points.withLock { points in
            var (low, high) = (0, points.count)
            while low < high {
                let middle = (low + high) / 2
                if points[middle].uncompressedOffset <= offset { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? nil : points[low - 1]
        }
    }
}
