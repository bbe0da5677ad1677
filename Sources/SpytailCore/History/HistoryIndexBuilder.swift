/// Collects the rows of a `HistoryIndex` file by file, each file's entries in the order they were read, and
/// orders them by time at the end. Logs are mostly in time order already (a chain read oldest first): then the
/// columns become the index as they are, without a copy.
public struct HistoryIndexBuilder {
    private var files: [SourceFile] = []
    private var fileSizes: [Int64] = []
    private var times: [Int64] = []
    /// Rows without a time of their own (they take a neighbour's when their file ends), as row numbers.
    private var untimed: [Int32] = []
    private var offsets: [Int64] = []
    private var kindIndices: [UInt32] = []
    private var kinds: [HistoryIndex.Kind] = []
    private var kindNumbers: [HistoryIndex.Kind: UInt32] = [:]
    private var gaps: [(row: Int, report: GapReport)] = []
    /// The first row of the file being read, and of its untimed rows.
    private var fileStart = 0
    private var untimedStart = 0

    public init() {}

    /// Rows so far.
    public var count: Int { times.count }

    /// The next rows belong to `file`.
    public mutating func startFile(_ file: SourceFile) {
        closeFile()
        files.append(file)
        fileSizes.append(0)
        fileStart = times.count
        untimedStart = untimed.count
    }

    /// One entry of the current file (classified by the rules: `category`, `tags`, `time`).
    public mutating func add(offset: Int64, time: Int64?, category: Int, tags: TagSet) {
        if time == nil { untimed.append(Int32(times.count)) }
        times.append(time ?? 0)
        offsets.append(offset)
        let kind = HistoryIndex.Kind(file: UInt32(files.count - 1), category: UInt16(truncatingIfNeeded: category), tags: tags.bits)
        if let number = kindNumbers[kind] {
            kindIndices.append(number)
        } else {
            kindNumbers[kind] = UInt32(kinds.count)
            kindIndices.append(UInt32(kinds.count))
            kinds.append(kind)
        }
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
        defer { (fileStart, untimedStart) = (times.count, untimed.count) }
        guard untimedStart < untimed.count else { return }
        // Untimed rows are listed in row order: walk both together.
        var next = untimedStart
        var last: Int64?
        for row in rows {
            if next < untimed.count && Int(untimed[next]) == row {
                next += 1
                if let last { times[row] = last }
            } else {
                if last == nil {
                    // The first time of the file: the untimed rows before it (all of them from the file's start) take it.
                    for leading in fileStart..<row { times[leading] = times[row] }
                }
                last = times[row]
            }
        }
    }

    /// The index: rows ordered by time, equal times in the order they were added.
    public mutating func build() -> HistoryIndex {
        closeFile()
        var rowsByFile = [[Int32]](repeating: [], count: files.count)
        var perFile = [Int](repeating: 0, count: files.count)
        for index in kindIndices { perFile[Int(kinds[Int(index)].file)] += 1 }
        for file in files.indices { rowsByFile[file].reserveCapacity(perFile[file]) }
        var gapRows: [Int: GapReport] = [:]
        if let order = Self.order(times) {
            // Out of order: the columns are gathered in time order (a copy each); each file's list, mapped to the
            // new rows, stays in offset order (its rows were added in that order).
            var newRow = [Int32](repeating: 0, count: order.count)
            for (row, old) in order.enumerated() { newRow[Int(old)] = Int32(row) }
            for old in kindIndices.indices { rowsByFile[Int(kinds[Int(kindIndices[old])].file)].append(newRow[old]) }
            for gap in gaps { gapRows[Int(newRow[gap.row])] = gap.report }
            newRow = []
            times = order.map { times[Int($0)] }
            offsets = order.map { offsets[Int($0)] }
            kindIndices = order.map { kindIndices[Int($0)] }
        } else {
            for row in kindIndices.indices { rowsByFile[Int(kinds[Int(kindIndices[row])].file)].append(Int32(row)) }
            for gap in gaps { gapRows[gap.row] = gap.report }
        }
        let index = HistoryIndex(files: files, fileSizes: fileSizes, times: times, offsets: offsets, kindIndices: kindIndices, kinds: kinds,
                                 gaps: gapRows, rowsByFile: rowsByFile)
        self = HistoryIndexBuilder()
        return index
    }

    /// The rows in time order, ties in row order; nil when they are in order already.
    static func order(_ times: [Int64]) -> [Int32]? {
        if zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) { return nil }
        var keys = times.indices.map { (time: times[$0], row: Int32($0)) }
        keys.sort { $0.time != $1.time ? $0.time < $1.time : $0.row < $1.row }
        return keys.map(\.row)
    }

    /// `order`, with the rows in order spelled out (tests).
    static func stableOrder(_ times: [Int64]) -> [Int32] { order(times) ?? (0..<Int32(times.count)).map { $0 } }
}
