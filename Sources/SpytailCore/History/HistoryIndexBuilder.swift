/// Collects the rows of a `HistoryIndex` file by file, each file's entries in the order they were read, and
/// orders them by time at the end.
public struct HistoryIndexBuilder {
    private var files: [SourceFile] = []
    private var fileSizes: [Int64] = []
    private var times: [Int64] = []
    /// Whether each row had a time of its own (the others take a neighbour's when the file ends).
    private var timed: [Bool] = []
    private var fileIndices: [UInt32] = []
    private var offsets: [Int64] = []
    private var categories: [UInt16] = []
    private var tags: [UInt64] = []
    private var gaps: [(row: Int, report: GapReport)] = []
    /// The first row of the file being read.
    private var fileStart = 0

    public init() {}

    /// Rows so far.
    public var count: Int { times.count }

    /// The next rows belong to `file`.
    public mutating func startFile(_ file: SourceFile) {
        closeFile()
        files.append(file)
        fileSizes.append(0)
        fileStart = times.count
    }

    /// One entry of the current file (classified by the rules: `category`, `tags`, `time`).
    public mutating func add(offset: Int64, time: Int64?, category: Int, tags: TagSet) {
        times.append(time ?? 0)
        timed.append(time != nil)
        fileIndices.append(UInt32(files.count - 1))
        offsets.append(offset)
        categories.append(UInt16(truncatingIfNeeded: category))
        self.tags.append(tags.bits)
    }

    /// Reading the current file stopped at damaged data: a gap row after what was read.
    public mutating func addGap(_ report: GapReport, category: Int) {
        gaps.append((times.count, report))
        add(offset: report.offset, time: nil, category: category, tags: TagSet())
    }

    /// The current file was read to `size` bytes (decompressed).
    public mutating func endFile(size: Int64) {
        if !fileSizes.isEmpty { fileSizes[fileSizes.count - 1] = size }
        closeFile()
    }

    /// Gives the current file's rows without a time of their own a neighbour's: the entry before them in the
    /// file, or for the first ones the first time after them (a file without any time keeps 0: first).
    private mutating func closeFile() {
        let rows = fileStart..<times.count
        guard !rows.isEmpty else { return }
        var last: Int64? = nil
        for row in rows {
            if timed[row] { last = times[row] } else if let last { times[row] = last }
        }
        if let first = rows.first(where: { timed[$0] }) {
            for row in fileStart..<first { times[row] = times[first] }
        }
        fileStart = times.count
    }

    /// The index: rows ordered by time, equal times in the order they were added.
    public mutating func build() -> HistoryIndex {
        closeFile()
        let order = Self.stableOrder(times)
        func gather<T>(_ column: [T]) -> [T] { order.map { column[Int($0)] } }
        let sortedOffsets = gather(offsets), sortedFiles = gather(fileIndices)
        var newRow = [Int32](repeating: 0, count: order.count)
        for (row, old) in order.enumerated() { newRow[Int(old)] = Int32(row) }
        var gapRows: [Int: GapReport] = [:]
        for gap in gaps { gapRows[Int(newRow[gap.row])] = gap.report }
        // Rows were added file by file in offset order: each file's list, mapped to the new rows, stays in it.
        var rowsByFile = [[Int32]](repeating: [], count: files.count)
        for old in fileIndices.indices { rowsByFile[Int(fileIndices[old])].append(newRow[old]) }
        return HistoryIndex(files: files, fileSizes: fileSizes, times: gather(times), fileIndices: sortedFiles, offsets: sortedOffsets,
                            categories: gather(categories), tags: gather(tags), gaps: gapRows, rowsByFile: rowsByFile)
    }

    /// The rows in time order, ties in row order. Logs are mostly in order already (a chain read oldest
    /// first): an ordered column costs one pass, a nearly ordered one a sort of (time, row) pairs.
    static func stableOrder(_ times: [Int64]) -> [Int32] {
        if zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) { return (0..<Int32(times.count)).map { $0 } }
        var keys = times.indices.map { (time: times[$0], row: Int32($0)) }
        keys.sort { $0.time != $1.time ? $0.time < $1.time : $0.row < $1.row }
        return keys.map(\.row)
    }
}
