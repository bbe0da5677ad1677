/// What `spytail explore` keeps of every entry it read: where the entry is (file and offset in the file's
/// decompressed stream), when it happened, its category, tags and source. Not its text: that is read again
/// from the file when it is shown or searched (`HistoryReader`). Rows are ordered by time across every file
/// and source (stable: equal times keep the order the files were read in, then the offsets), so a time window
/// is a range of rows found by binary search.
///
/// Columns, not an array of structs, and few bytes a row: a time (8), an offset (8) and a kind (4), the index
/// of the row's (file, category, tags) in `kinds`: logs repeat few of those. 20 bytes a row, 40 MB for 2M
/// entries. Built by `HistoryIndexBuilder`; after that it changes only by `append` (`explore --follow`), which
/// its owner serializes with every read (`Explorer`'s lock).
public final class HistoryIndex: @unchecked Sendable {
    /// A row's file, category and tags.
    public struct Kind: Sendable, Hashable {
        public let file: UInt32
        public let category: UInt16
        public let tags: UInt64
    }

    /// The files read, in the order they were read.
    public private(set) var files: [SourceFile]
    /// Bytes of each file read (decompressed): where its last entry ends.
    public private(set) var fileSizes: [Int64]
    /// Nanoseconds since the Unix epoch the row sorts by: its own time, or for an entry without one the time of
    /// the entry before it in its file (the first ones of a file: the first time that follows).
    public private(set) var times: [Int64]
    /// Offset of the entry's first line in its file's decompressed stream.
    public private(set) var offsets: [Int64]
    /// Each row's index into `kinds`.
    public private(set) var kindIndices: [UInt32]
    public private(set) var kinds: [Kind]
    /// Rows that stand for a gap (damaged data), by row: the report to show for it.
    public private(set) var gaps: [Int: GapReport]
    /// Each file's rows in offset order (what "show context" walks, and what a search reads file by file).
    public private(set) var rowsByFile: [[Int32]]

    init(files: [SourceFile], fileSizes: [Int64], times: [Int64], offsets: [Int64], kindIndices: [UInt32], kinds: [Kind],
         gaps: [Int: GapReport], rowsByFile: [[Int32]]) {
        self.files = files
        self.fileSizes = fileSizes
        self.times = times
        self.offsets = offsets
        self.kindIndices = kindIndices
        self.kinds = kinds
        self.gaps = gaps
        self.rowsByFile = rowsByFile
    }

    /// Kinds by value (to append rows of a kind seen before).
    private var kindNumbers: [Kind: UInt32] = [:]
    /// The time of the last entry appended to each file that had one (for the appended entries without a time).
    private var lastTimes: [Int: Int64] = [:]

    public var count: Int { times.count }
    /// The first and last times (nil when there are no rows).
    public var span: ClosedRange<Int64>? { times.isEmpty ? nil : times[0]...times[times.count - 1] }

    @inline(__always) public func kind(_ row: Int) -> Kind { kinds[Int(kindIndices[row])] }
    @inline(__always) public func file(_ row: Int) -> Int { Int(kind(row).file) }

    /// The rows whose time is in `from..<to` (nil bounds: open).
    public func rows(from: Int64?, to: Int64?) -> Range<Int> {
        let lower = from.map { firstRow(atOrAfter: $0) } ?? 0
        let upper = to.map { firstRow(atOrAfter: $0) } ?? times.count
        return lower..<max(lower, upper)
    }

    /// The first row whose time is at or after `time` (binary search).
    public func firstRow(atOrAfter time: Int64) -> Int {
        var (low, high) = (0, times.count)
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The rows of `row`'s file around it, in offset order: `before` entries, the row, `after` entries (fewer at
    /// the file's ends). "Show context".
    public func context(of row: Int, before: Int, after: Int) -> [Int] {
        let list = rowsByFile[file(row)]
        guard let at = position(in: list, offset: offsets[row]) else { return [row] }
        return list[max(0, at - before)..<min(list.count, at + after + 1)].map(Int.init)
    }

    /// The row of the entry at `offset` in `file`, if the index has it.
    public func row(file: Int, offset: Int64) -> Int? {
        guard rowsByFile.indices.contains(file) else { return nil }
        let list = rowsByFile[file]
        return position(in: list, offset: offset).map { Int(list[$0]) }
    }

    /// Where the row at `offset` sits in `list` (rows of one file in offset order).
    private func position(in list: [Int32], offset: Int64) -> Int? {
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if offsets[Int(list[middle])] < offset { low = middle + 1 } else { high = middle }
        }
        return low < list.count && offsets[Int(list[low])] == offset ? low : nil
    }

    /// A file that started after the index was built (a followed file rotated: its new content); returns its number.
    public func appendFile(_ file: SourceFile) -> Int {
        files.append(file)
        fileSizes.append(0)
        rowsByFile.append([])
        return files.count - 1
    }

    /// An entry read after the index was built, at the end of followed `file` (where it was read up to `end`).
    /// Rows stay ordered by time: an entry older than the last row (a source behind another) is placed last and
    /// counted at the last row's time; one without a time takes its file's last time, or the last row's.
    public func append(file: Int, offset: Int64, time: Int64?, category: Int, tags: TagSet, end: Int64) {
        let newest = times.last ?? Int64.min
        let own = time ?? lastTimes[file] ?? newest
        if let time { lastTimes[file] = time }
        let row = times.count
        times.append(max(own, newest))
        offsets.append(offset)
        kindIndices.append(kindNumber(Kind(file: UInt32(file), category: UInt16(truncatingIfNeeded: category), tags: tags.bits)))
        rowsByFile[file].append(Int32(row))
        fileSizes[file] = max(fileSizes[file], end)
    }

    /// A followed file was read up to `end`.
    public func noteRead(file: Int, upTo end: Int64) {
        fileSizes[file] = max(fileSizes[file], end)
    }

    /// A gap found after the index was built (a followed file shrank, or failed to read): a row of its own.
    public func appendGap(_ report: GapReport, file: Int, category: Int) {
        gaps[times.count] = report
        append(file: file, offset: report.offset, time: nil, category: category, tags: TagSet(), end: report.offset)
    }

    private func kindNumber(_ kind: Kind) -> UInt32 {
        if kindNumbers.isEmpty && !kinds.isEmpty {
            for (number, known) in kinds.enumerated() { kindNumbers[known] = UInt32(number) }
        }
        if let number = kindNumbers[kind] { return number }
        kinds.append(kind)
        kindNumbers[kind] = UInt32(kinds.count - 1)
        return UInt32(kinds.count - 1)
    }
}
