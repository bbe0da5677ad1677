/// How many rows of a window of a `HistoryIndex` have each category, tag, source and file: the explorer's
/// field list, read from the index alone (no text).
public struct HistoryFacets: Sendable, Equatable {
    public var categories: [Int: Int] = [:]
    public var tags: [Int: Int] = [:]
    public var sources: [Int: Int] = [:]
    public var files: [Int: Int] = [:]
    public var rows = 0

    /// Counts the rows of `index` in `rows`; only those of `matched` (a search's rows) when it is given.
    public init(_ index: HistoryIndex, rows: Range<Int>, matched: [Int32]? = nil) {
        var byFile = [Int](repeating: 0, count: index.files.count)
        var byCategory = [Int](repeating: 0, count: (index.kinds.map { Int($0.category) }.max() ?? 0) + 1)
        var byTag = [Int](repeating: 0, count: TagSet.capacity)
        func count(_ row: Int) {
            let kind = index.kind(row)
            byFile[Int(kind.file)] += 1
            byCategory[Int(kind.category)] += 1
            var bits = kind.tags
            while bits != 0 {
                byTag[bits.trailingZeroBitCount] += 1
                bits &= bits - 1
            }
        }
        var total = 0
        if let matched {
            for row in matched where rows.contains(Int(row)) { count(Int(row)); total += 1 }
        } else {
            for row in rows { count(row) }
            total = rows.count
        }
        self.rows = total
        for (file, count) in byFile.enumerated() where count > 0 {
            files[file] = count
            sources[index.files[file].source, default: 0] += count
        }
        for (category, count) in byCategory.enumerated() where count > 0 { categories[category] = count }
        for (tag, count) in byTag.enumerated() where count > 0 { tags[tag] = count }
    }
}
