/// Entries per time bucket and category over a window of a `HistoryIndex`: what the explorer's histogram
/// draws. Buckets have a round width (1 ms, 5 ms, … 1 s, 5 s, … 1 day, … 1 year) chosen so that a window gets at most `maxBuckets`.
public struct TimeHistogram: Sendable, Equatable {
    /// Start of the first bucket, nanoseconds since the Unix epoch (a multiple of `width`).
    public let start: Int64
    /// Bucket width in nanoseconds.
    public let width: Int64
    /// `counts[bucket][category]`.
    public let counts: [[Int]]

    /// The widths a bucket may have, in milliseconds.
    static let widths: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500]
        + [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 7 * 86400, 30 * 86400,
           365 * 86400].map { $0 * 1000 }

    /// Counts the rows of `index` in `from..<to` (nil: the index's own span) by bucket and category; only
    /// those of `matched` (rows in time order, a search's) when it is given.
    public init(_ index: HistoryIndex, from: Int64?, to: Int64?, matched: [Int32]? = nil, maxBuckets: Int = 120, categoryCount: Int) {
        let window = index.rows(from: from, to: to)
        let low = from ?? index.span?.lowerBound ?? 0
        let high = max(low + 1, to ?? ((index.span?.upperBound ?? 0) + 1))
        let millisecond: Int64 = 1_000_000
        let wanted = (high - low + Int64(max(1, maxBuckets)) - 1) / Int64(max(1, maxBuckets))
        let width = (Self.widths.first { $0 * millisecond >= wanted } ?? Self.widths.last!) * millisecond
        let start = Self.floor(low, to: width)
        (self.width, self.start) = (width, start)
        let bucketCount = Int((high - 1 - start) / width) + 1
        var counts = [[Int]](repeating: [Int](repeating: 0, count: max(1, categoryCount)), count: bucketCount)
        index.times.withUnsafeBufferPointer { times in
            index.kindIndices.withUnsafeBufferPointer { kindIndices in
                func count(_ row: Int) {
                    let bucket = Int((times[row] - start) / width)
                    let category = min(Int(index.kinds[Int(kindIndices[row])].category), counts[bucket].count - 1)
                    counts[bucket][category] += 1
                }
                if let matched {
                    for row in matched where window.contains(Int(row)) { count(Int(row)) }
                } else {
                    for row in window { count(row) }
                }
            }
        }
        self.counts = counts
    }

    /// `value` rounded down to a multiple of `width` (also below 0).
    static func floor(_ value: Int64, to width: Int64) -> Int64 {
        let remainder = value % width
        return remainder < 0 ? value - remainder - width : value - remainder
    }

    public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }
}
