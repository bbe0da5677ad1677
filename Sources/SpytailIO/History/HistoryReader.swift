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
    private let seekPoints: [Int: GzipSeekPoints]
    /// Per source (`source + 1`): its parser's message is a piece of the entry's raw text, so a text that is not
    /// in the raw text cannot be in the message (a JSON or logfmt message may be decoded from escapes: no).
    private let messageIsRaw: [Bool]
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read at a time.
    static let chunkSize = 64 * 1024

    /// `seekPoints`: each gzip file's, by its number in `index.files` (`HistoryIndexer.seekPoints`).
    public init(index: HistoryIndex, config: CompiledConfig, seekPoints: [Int: GzipSeekPoints] = [:]) {
        self.index = index
        pipeline = HistoryIndexer.pipeline(config)
        vocabulary = config.rules.vocabulary
        formatter = JSONLinesFormatter(vocabulary: vocabulary)
        self.seekPoints = seekPoints
        cursors = []
        messageIsRaw = (SourceFile.unnamed..<config.config.sources.count).map { Self.messageIsRaw(config.parser(forSource: $0).format) }
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 64)
        addCursors()
    }

    deinit { buffer.deallocate() }

    /// Cursors for the files the index gained since (followed files' new content).
    func addCursors() {
        for file in cursors.count..<index.files.count {
            cursors.append(HistoryFileCursor(path: index.files[file].path, fingerprint: index.files[file].fingerprint, seekPoints: seekPoints[file]))
        }
    }

    static func messageIsRaw(_ format: LineParser.Format) -> Bool {
        switch format {
        case .regex, .text: return true
        case .json, .logfmt: return false
        case .container(_, let inner): return inner.map { messageIsRaw($0.format) } ?? true
        }
    }

    /// The jsonl records (without newline) of `rows`, in the order given. A row whose entry can no longer be
    /// read as it was indexed (the file changed or went away) gets no record: `nil` in its place.
    public func records(_ rows: [Int]) -> [[UInt8]?] {
        var records = [[UInt8]?](repeating: nil, count: rows.count)
        visit(rows) { slot, entry in records[slot] = format(&entry) }
        return records
    }

    /// The rows of `rows` (ascending) whose entries `filter` shows and whose message `search` matches, ascending.
    public func search(_ rows: Range<Int>, filter: ViewFilter, text search: TextSearch?) -> [Int32] {
        var found: [Int32] = []
        let slots = Array(rows)
        // An entry whose raw text lacks the search text is dropped before it is parsed.
        let text = search?.mode == .text ? search : nil
        let messageIsRaw = self.messageIsRaw
        visit(slots, prefilter: { entry in
            guard let text, messageIsRaw[entry.file.source + 1] else { return true }
            return entry.text.withUnsafeBufferPointer { text.matches($0) }
        }) { slot, entry in
            if Self.matches(entry, filter, search) { found.append(Int32(slots[slot])) }
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

    /// Reads the entries of `rows` (file by file, each from its first wanted offset to its last) and gives each
    /// one, classified, to `body` with its place in `rows`. `prefilter` sees an entry before it is parsed and
    /// may drop it. Gap rows get their gap's entry.
    private func visit(_ rows: [Int], prefilter: (inout SpyEntry) -> Bool = { _ in true }, _ body: (Int, inout SpyEntry) -> Void) {
        var byFile: [Int: [(offset: Int64, slot: Int)]] = [:]
        for (slot, row) in rows.enumerated() {
            if let gap = index.gaps[row] {
                var entry = gap.entry(vocabulary: vocabulary)
                body(slot, &entry)
                continue
            }
            byFile[index.file(row), default: []].append((index.offsets[row], slot))
        }
        for (file, wanted) in byFile.sorted(by: { $0.key < $1.key }) {
            let sorted = wanted.sorted { $0.offset < $1.offset }
            var next = 0
            forEachEntry(ofFile: file, from: sorted[0].offset) { entry in
                while next < sorted.count && sorted[next].offset < entry.offset { next += 1 }
                if next < sorted.count && sorted[next].offset == entry.offset, prefilter(&entry), pipeline.admit(&entry) {
                    while next < sorted.count && sorted[next].offset == entry.offset {
                        body(sorted[next].slot, &entry)
                        next += 1
                    }
                }
                return next < sorted.count
            }
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
