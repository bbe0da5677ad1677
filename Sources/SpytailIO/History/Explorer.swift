import SpytailCore

/// `spytail explore`'s history: the index of what was read and the reader that reads entries again, with the
/// queries the HTTP API answers (a page of a window, the histogram, the facets, an entry's context). Requests
/// run one at a time (the reader's files and regexes are not shared); a search's matching rows are kept for
/// the next request with the same conditions (paging, the histogram and the facets of one view share it).
/// With `--follow`, `follow` appends the live files' new entries between requests.
public final class Explorer: Sendable {
    /// Read it through `withIndex` (it grows while followed).
    private let index: HistoryIndex
    public let context: ViewContext
    /// The live files `--follow` reads on (empty: none).
    public let following: [String]
    private let state: Locked<State>

    private struct State {
        let reader: HistoryReader
        /// The last search, kept for the next request with the same conditions.
        var search: HistorySearch?
    }

    /// A page of entries: the records, how many match in the window, and where the next page starts.
    public struct Page: Sendable {
        public var records: [[UInt8]]
        /// Matches in the window: all of them when `complete`, else those found so far (a search reads only as
        /// far as its page needs: `count` gives the whole number).
        public var total: Int
        public var complete: Bool
        /// The `after=` of the next page (a row), nil at the end.
        public var next: Int?
        /// The row of the page's last entry (the `after=` that asks for what joins the view later: `--follow`).
        public var last: Int?
        /// Entries of the page left out because their file no longer holds them (moved, replaced, deleted).
        public var unreadable: Int
    }

    /// Rows a search reads at a time (`HistorySearch`).
    let searchBlockRows: Int

    /// `seekPoints`: each gzip file's, by its number in `index.files` (`HistoryIndexer.seekPoints`).
    public init(index: HistoryIndex, config: CompiledConfig, seekPoints: [Int: GzipSeekPoints] = [:], following: [String] = [],
                searchBlockRows: Int = 16_384) {
        self.index = index
        self.following = following
        self.searchBlockRows = searchBlockRows
        context = ViewContext(config)
        state = Locked(State(reader: HistoryReader(index: index, config: config, seekPoints: seekPoints)))
    }

    public var categoryNames: [String] { context.vocabulary.categories.map(\.name) }

    /// Reads the index between appends.
    public func withIndex<T>(_ body: (HistoryIndex) -> T) -> T {
        state.withLock { _ in body(index) }
    }

    /// Reads what the followed files gained into the index; returns the entries added. A search's blocks from
    /// the old end on are searched again when next asked.
    @discardableResult
    public func follow(_ follower: HistoryFollower, now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            let before = index.count
            let added = follower.poll(into: index, now: now)
            state.reader.addCursors()
            if index.count != before { state.search?.forget(from: before) }
            return added
        }
    }

    /// The search of `query` (over all times; a window is then a slice of it), the last one when it is the same.
    private func search(_ query: ExploreQuery, _ state: inout State) throws(ExploreError) -> HistorySearch? {
        guard query.searches else { return nil }
        let whole = query.unwindowed
        if let last = state.search, last.query == whole { return last }
        let search = try HistorySearch(whole, context: context, blockRows: searchBlockRows)
        state.search = search
        return search
    }

    /// Up to `limit` entries of the window after row `after` (the previous page's `next`), oldest first.
    public func page(_ query: ExploreQuery, after: Int?, limit: Int) throws(ExploreError) -> Page {
        try state.withLock { (state) throws(ExploreError) -> Page in
            let window = index.rows(from: query.from, to: query.to)
            let start = max(window.lowerBound, (after ?? -1) + 1)
            let rows: [Int], more: Bool, total: Int, complete: Bool
            if let search = try search(query, &state) {
                (rows, more) = search.first(limit, in: window, from: start, state.reader)
                (total, complete) = search.counted(in: window)
            } else {
                let tail = start..<max(start, window.upperBound)
                (rows, more) = (Array(tail.prefix(limit)), tail.count > limit)
                (total, complete) = (window.count, true)
            }
            let read = state.reader.records(rows)
            let records = read.compactMap { $0 }
            return Page(records: records, total: total, complete: complete, next: more ? rows.last : nil, last: rows.last,
                        unreadable: read.count - records.count)
        }
    }

    /// How many entries of the window the query shows (a search reads every block of the window).
    public func count(_ query: ExploreQuery) throws(ExploreError) -> Int {
        try state.withLock { (state) throws(ExploreError) -> Int in
            let window = index.rows(from: query.from, to: query.to)
            guard let search = try search(query, &state) else { return window.count }
            return search.all(in: window, state.reader).count
        }
    }

    /// The rows a query shows in its window: nil for every row of it (no search).
    private func matches(_ query: ExploreQuery, _ state: inout State) throws(ExploreError) -> [Int32]? {
        guard let search = try search(query, &state) else { return nil }
        return search.all(in: index.rows(from: query.from, to: query.to), state.reader)
    }

    /// The histogram of the window (of the search's matches when the query searches).
    public func histogram(_ query: ExploreQuery, buckets: Int) throws(ExploreError) -> TimeHistogram {
        try state.withLock { (state) throws(ExploreError) -> TimeHistogram in
            let matched = try matches(query, &state)
            return TimeHistogram(index, from: query.from, to: query.to, matched: matched, maxBuckets: buckets,
                                 categoryCount: context.vocabulary.categories.count)
        }
    }

    /// Counts by category, tag, source and file in the window.
    public func facets(_ query: ExploreQuery) throws(ExploreError) -> HistoryFacets {
        try state.withLock { (state) throws(ExploreError) -> HistoryFacets in
            let matched = try matches(query, &state)
            return HistoryFacets(index, rows: index.rows(from: query.from, to: query.to), matched: matched)
        }
    }

    /// The most common values of a parsed field (a path into the records' `fields`, as conditions write it) among
    /// the view's entries: Kibana's field list. Read from a sample of at most `sample` entries spread evenly over
    /// the view (their records read again from the files).
    public struct FieldValues: Sendable, Equatable {
        public var values: [Value]
        /// Entries read, and how many of them have no such field.
        public var sampled: Int
        public var missing: Int
        public struct Value: Sendable, Equatable {
            public var value: String
            public var count: Int
        }
    }

    public func topValues(_ query: ExploreQuery, field: String, sample: Int = 5000, top: Int = 10) throws(ExploreError) -> FieldValues {
        guard let path = FieldPath(field) else { throw ExploreError("field=\(field): not a field path (such as http.status)") }
        let components = path.components.map { String(decoding: $0, as: UTF8.self) }
        return try state.withLock { (state) throws(ExploreError) -> FieldValues in
            let window = index.rows(from: query.from, to: query.to)
            let matched = try matches(query, &state)
            let total = matched?.count ?? window.count
            let stride = max(1, (total + sample - 1) / max(1, sample))
            let rows = Swift.stride(from: 0, to: total, by: stride).map { k in matched.map { Int($0[k]) } ?? (window.lowerBound + k) }
            var counts: [String: Int] = [:], missing = 0, sampled = 0
            for record in state.reader.records(rows) {
                guard let record else { continue }
                sampled += 1
                guard let value = Self.value(at: components, in: record) else { missing += 1; continue }
                counts[value, default: 0] += 1
            }
            let values = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(top)
                .map { FieldValues.Value(value: $0.key, count: $0.value) }
            return FieldValues(values: values, sampled: sampled, missing: missing)
        }
    }

    /// The value at `path` in a record's `fields`, as text (a number as written without a needless ".0").
    static func value(at path: [String], in record: [UInt8]) -> String? {
        guard case .object(let members)? = try? JSONValue.parse(record), case .object(var node)? = members["fields"] else { return nil }
        for (k, key) in path.enumerated() {
            guard let next = node[key] else { return nil }
            if k == path.count - 1 {
                switch next {
                case .string(let text): return text
                case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
                case .bool(let b): return b ? "true" : "false"
                case .null: return "null"
                case .array: return "[…]"
                case .object: return "{…}"
                }
            }
            guard case .object(let inner) = next else { return nil }
            node = inner
        }
        return nil
    }

    /// The entry with record id `id` (`FINGERPRINT-OFFSET`) and its neighbours in its own file: the records,
    /// and which of them is the entry.
    public func context(id: String, before: Int, after: Int) throws(ExploreError) -> (records: [[UInt8]], at: Int) {
        try state.withLock { (state) throws(ExploreError) in
            guard let row = row(id: id) else { throw ExploreError("id=\(id): no entry of the history has this id") }
            let rows = index.context(of: row, before: before, after: after)
            let records = state.reader.records(rows)
            let at = rows.firstIndex(of: row) ?? 0
            // A record that cannot be read is left out; the entry's place counts only those before it that could.
            return (records.compactMap { $0 }, records[..<at].filter { $0 != nil }.count)
        }
    }

    /// The row of a record id (under the lock).
    private func row(id: String) -> Int? {
        guard let dash = id.lastIndex(of: "-"), let offset = Int64(id[id.index(after: dash)...]),
              let value = UInt64(id[..<dash], radix: 16) else { return nil }
        for (file, source) in index.files.enumerated() where source.fingerprint.value == value {
            if let row = index.row(file: file, offset: offset) { return row }
        }
        return nil
    }
}
