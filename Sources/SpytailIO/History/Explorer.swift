import SpytailCore

/// `spytail explore`'s history: the index of what was read and the reader that reads entries again, with the
/// queries the HTTP API answers (a page of a window, the histogram, the facets, an entry's context). Requests
/// run one at a time (the reader's files and regexes are not shared); a search's matching rows are kept for
/// the next request with the same conditions (paging, the histogram and the facets of one view share it).
public final class Explorer: Sendable {
    public let index: HistoryIndex
    public let context: ViewContext
    private let state: Locked<State>

    private struct State {
        let reader: HistoryReader
        var lastSearch: (query: ExploreQuery, rows: [Int32])?
    }

    /// A page of entries: the records, how many match in the window, and where the next page starts.
    public struct Page: Sendable {
        public var records: [[UInt8]]
        public var total: Int
        /// The `after=` of the next page (a row), nil at the end.
        public var next: Int?
        /// Entries of the page left out because their file no longer holds them (moved, replaced, deleted).
        public var unreadable: Int
    }

    public init(index: HistoryIndex, config: CompiledConfig) {
        self.index = index
        context = ViewContext(config)
        state = Locked(State(reader: HistoryReader(index: index, config: config)))
    }

    public var categoryNames: [String] { context.vocabulary.categories.map(\.name) }

    /// The rows a query shows, in time order: every row of the window, or the search's matches in it.
    private func matches(_ query: ExploreQuery, _ state: inout State) throws(ExploreError) -> (window: Range<Int>, matched: [Int32]?) {
        let window = index.rows(from: query.from, to: query.to)
        guard query.searches else { return (window, nil) }
        // Searched over the whole history once; a window is then a slice (zooming keeps the search).
        let whole = query.unwindowed
        if let last = state.lastSearch, last.query == whole { return (window, last.rows) }
        let filter: ViewFilter
        do {
            filter = try ViewFilter.compile(includes: query.includes, excludes: query.excludes, query: nil, context: context)
        } catch {
            throw ExploreError(error.description)
        }
        let search: TextSearch?
        do {
            search = try query.text.map { (text) throws(RegexError) in try TextSearch(text, mode: query.isRegex ? .regex : .text) }
        } catch {
            throw ExploreError("regex=\(query.text ?? ""): \(error)")
        }
        let rows = state.reader.search(0..<index.count, filter: filter, text: search)
        state.lastSearch = (whole, rows)
        return (window, rows)
    }

    /// Up to `limit` entries of the window after row `after` (the previous page's `next`), oldest first.
    public func page(_ query: ExploreQuery, after: Int?, limit: Int) throws(ExploreError) -> Page {
        try state.withLock { (state) throws(ExploreError) -> Page in
            let (window, matched) = try matches(query, &state)
            let rest = max(window.lowerBound, (after ?? -1) + 1)..<max(window.lowerBound, window.upperBound)
            let total: Int, tail: [Int]
            if let matched {
                total = Self.slice(matched, window).count
                tail = Self.slice(matched, rest.clamped(to: window)).prefix(limit + 1).map(Int.init)
            } else {
                total = window.count
                tail = Array(rest.clamped(to: window).prefix(limit + 1))
            }
            let rows = Array(tail.prefix(limit))
            let read = state.reader.records(rows)
            let records = read.compactMap { $0 }
            let more = tail.count > limit
            return Page(records: records, total: total, next: more ? rows.last : nil, unreadable: read.count - records.count)
        }
    }

    /// The histogram of the window (of the search's matches when the query searches).
    public func histogram(_ query: ExploreQuery, buckets: Int) throws(ExploreError) -> TimeHistogram {
        try state.withLock { (state) throws(ExploreError) -> TimeHistogram in
            let (_, matched) = try matches(query, &state)
            return TimeHistogram(index, from: query.from, to: query.to, matched: matched, maxBuckets: buckets,
                                 categoryCount: context.vocabulary.categories.count)
        }
    }

    /// Counts by category, tag, source and file in the window.
    public func facets(_ query: ExploreQuery) throws(ExploreError) -> HistoryFacets {
        try state.withLock { (state) throws(ExploreError) -> HistoryFacets in
            let (window, matched) = try matches(query, &state)
            return HistoryFacets(index, rows: window, matched: matched)
        }
    }

    /// The entry with record id `id` (`FINGERPRINT-OFFSET`) and its neighbours in its own file: the records,
    /// and which of them is the entry.
    public func context(id: String, before: Int, after: Int) throws(ExploreError) -> (records: [[UInt8]], at: Int) {
        guard let row = row(id: id) else { throw ExploreError("id=\(id): no entry of the history has this id") }
        return state.withLock { state in
            let rows = index.context(of: row, before: before, after: after)
            let records = state.reader.records(rows)
            let at = rows.firstIndex(of: row) ?? 0
            // A record that cannot be read is left out; the entry's place counts only those before it that could.
            return (records.compactMap { $0 }, records[..<at].filter { $0 != nil }.count)
        }
    }

    /// The row of a record id.
    public func row(id: String) -> Int? {
        guard let dash = id.lastIndex(of: "-"), let offset = Int64(id[id.index(after: dash)...]),
              let value = UInt64(id[..<dash], radix: 16) else { return nil }
        for (file, source) in index.files.enumerated() where source.fingerprint.value == value {
            if let row = index.row(file: file, offset: offset) { return row }
        }
        return nil
    }

    /// The part of `rows` (ascending) inside `window`.
    static func slice(_ rows: [Int32], _ window: Range<Int>) -> ArraySlice<Int32> {
        func first(atLeast value: Int) -> Int {
            var (low, high) = (0, rows.count)
            while low < high {
                let middle = (low + high) / 2
                if Int(rows[middle]) < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return rows[first(atLeast: window.lowerBound)..<first(atLeast: window.upperBound)]
    }
}
