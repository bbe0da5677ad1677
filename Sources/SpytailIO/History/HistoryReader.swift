import SpytailCore

/// Reads the entries of a `HistoryIndex` again from their files, through the same rules that indexed them:
/// the records of a page, the rows a search matches, the lines around an entry. Nothing of the text is kept
/// between requests except each gzip file's open reader (`HistoryFileCursor`). One request at a time: the
/// caller serializes (`Explorer`).
public final class HistoryReader {
    public let index: HistoryIndex
    private let pipeline: EntryPipeline
    private let vocabulary: Vocabulary
    private let formatter: JSONLinesFormatter
    private let scratch = OutputBuffer(capacity: 64 * 1024)
    private var cursors: [HistoryFileCursor]
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read at a time.
    static let chunkSize = 64 * 1024

    public init(index: HistoryIndex, config: CompiledConfig) {
        self.index = index
        pipeline = HistoryIndexer.pipeline(config)
        vocabulary = config.rules.vocabulary
        formatter = JSONLinesFormatter(vocabulary: vocabulary)
        cursors = index.files.map { HistoryFileCursor(path: $0.path, fingerprint: $0.fingerprint) }
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// The jsonl records (without newline) of `rows`, in the order given. A row whose entry can no longer be
    /// read as it was indexed (the file changed or went away) gets no record: `nil` in its place.
    public func records(_ rows: [Int]) -> [[UInt8]?] {
        var records = [[UInt8]?](repeating: nil, count: rows.count)
        var byFile: [Int: [(offset: Int64, slot: Int)]] = [:]
        for (slot, row) in rows.enumerated() {
            if let gap = index.gaps[row] {
                var entry = gap.entry(vocabulary: vocabulary)
                records[slot] = format(&entry)
                continue
            }
            byFile[Int(index.fileIndices[row]), default: []].append((index.offsets[row], slot))
        }
        for (file, wanted) in byFile.sorted(by: { $0.key < $1.key }) {
            let sorted = wanted.sorted { $0.offset < $1.offset }
            var next = 0
            forEachEntry(ofFile: file, from: sorted[0].offset) { entry in
                while next < sorted.count && sorted[next].offset < entry.offset { next += 1 }
                while next < sorted.count && sorted[next].offset == entry.offset {
                    if pipeline.admit(&entry) { records[sorted[next].slot] = format(&entry) }
                    next += 1
                }
                return next < sorted.count
            }
        }
        return records
    }

    /// The rows in `window` whose entries `filter` shows and whose message `search` matches, in time order.
    public func search(_ window: Range<Int>, filter: ViewFilter, text search: TextSearch?) -> [Int32] {
        guard !window.isEmpty else { return [] }
        var found: [Int32] = []
        for file in index.files.indices {
            let rows = index.rowsByFile[file]
            // Only files with rows in the window are read, from the first such row's entry to the last one's.
            guard let first = rows.firstIndex(where: { window.contains(Int($0)) }),
                  let last = rows.lastIndex(where: { window.contains(Int($0)) }) else { continue }
            var k = first
            forEachEntry(ofFile: file, from: index.offsets[Int(rows[first])]) { entry in
                while k <= last && index.offsets[Int(rows[k])] < entry.offset { k += 1 }
                guard k <= last else { return false }
                let row = Int(rows[k])
                if index.offsets[row] == entry.offset, window.contains(row), index.gaps[row] == nil, pipeline.admit(&entry),
                   Self.matches(entry, filter, search) {
                    found.append(Int32(row))
                }
                return k < last || index.offsets[row] != entry.offset
            }
            // Gap rows have no text: a filter on category or source may still show them.
            for k in first...last where index.gaps[Int(rows[k])] != nil && window.contains(Int(rows[k])) {
                var entry = index.gaps[Int(rows[k])]!.entry(vocabulary: vocabulary)
                if Self.matches(entry, filter, search) { found.append(rows[k]) }
                entry.text.removeAll()
            }
        }
        found.sort()
        return found
    }

    static func matches(_ entry: borrowing SpyEntry, _ filter: ViewFilter, _ search: TextSearch?) -> Bool {
        entry.text.withUnsafeBufferPointer { text in
            if let search, !search.matches(UnsafeBufferPointer(rebasing: text[entry.message])) { return false }
            return filter.isEmpty || filter.shows(entry, text: text)
        }
    }

    /// Reads `file`'s entries from `offset` (an entry's start) and gives each to `body` until it returns false
    /// or the file ends. A file that fails to read ends there (its damage was reported when it was indexed).
    private func forEachEntry(ofFile file: Int, from offset: Int64, _ body: (inout SpyEntry) -> Bool) {
        var stream = pipeline.makeStream(for: index.files[file], startOffset: offset)
        var more = true
        _ = try? cursors[file].read(from: offset, into: buffer) { chunk in
            stream.push(chunk) { entry in if more { more = body(&entry) } }
            return more
        }
        if more { stream.finish { entry in if more { more = body(&entry) } } }
    }

    private func format(_ entry: inout SpyEntry) -> [UInt8] {
        scratch.removeAll()
        entry.text.withUnsafeBufferPointer { formatter.format(entry, text: $0, into: scratch) }
        var bytes = Array(scratch.bytes)
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }
}
