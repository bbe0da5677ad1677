import SpytailCore

/// One search over a history (conditions and a text or regex, over every time), run lazily in blocks of rows in
/// time order: a page needs only the blocks up to its last match (the first page of a common word reads a few
/// thousand entries), a count or a histogram every block of its window; a block searched once is not searched
/// again (paging, zooming, the histogram and the facets of one view share them). Used under `Explorer`'s lock.
final class HistorySearch {
    let query: ExploreQuery
    private let filter: ViewFilter
    private let text: TextSearch?
    /// Rows a block holds: a block of W1's lines is about 3 MB of text.
    let blockRows: Int
    /// The matching rows of each block searched, ascending.
    private var found: [Int: [Int32]] = [:]

    init(_ query: ExploreQuery, context: ViewContext, blockRows: Int = 16_384) throws(ExploreError) {
        self.query = query
        self.blockRows = blockRows
        do {
            filter = try ViewFilter.compile(includes: query.includes, excludes: query.excludes, query: nil, context: context)
        } catch {
            throw ExploreError(error.description)
        }
        do {
            text = try query.text.map { (text) throws(RegexError) in try TextSearch(text, mode: query.isRegex ? .regex : .text) }
        } catch {
            throw ExploreError("regex=\(query.text ?? ""): \(error)")
        }
    }

    /// Blocks searched so far.
    var blocksSearched: Int { found.count }

    /// The matches of block `block`, searching it if it was not.
    private func block(_ block: Int, _ reader: HistoryReader) -> [Int32] {
        if let rows = found[block] { return rows }
        let start = block * blockRows
        let rows = reader.search(start..<min(start + blockRows, reader.index.count), filter: filter, text: text)
        found[block] = rows
        return rows
    }

    /// Forgets the blocks that hold rows from `row` on (rows were appended there: they are searched again).
    func forget(from row: Int) {
        let first = row / blockRows
        found = found.filter { $0.key < first }
    }

    /// The first `limit` matches in `window` at or after row `start`, and whether there are more.
    func first(_ limit: Int, in window: Range<Int>, from start: Int, _ reader: HistoryReader) -> (rows: [Int], more: Bool) {
        let range = max(window.lowerBound, start)..<window.upperBound
        guard !range.isEmpty else { return ([], false) }
        var rows: [Int] = []
        for b in (range.lowerBound / blockRows)...((range.upperBound - 1) / blockRows) {
            for row in block(b, reader) where range.contains(Int(row)) {
                if rows.count == limit { return (rows, true) }
                rows.append(Int(row))
            }
        }
        return (rows, false)
    }

    /// Every match in `window` (every block of it searched).
    func all(in window: Range<Int>, _ reader: HistoryReader) -> [Int32] {
        guard !window.isEmpty else { return [] }
        var rows: [Int32] = []
        for b in (window.lowerBound / blockRows)...((window.upperBound - 1) / blockRows) {
            rows += block(b, reader).lazy.filter { window.contains(Int($0)) }
        }
        return rows
    }

    /// Matches in `window` among the blocks searched so far, and whether that is all of them.
    func counted(in window: Range<Int>) -> (count: Int, complete: Bool) {
        guard !window.isEmpty else { return (0, true) }
        var count = 0, complete = true
        for b in (window.lowerBound / blockRows)...((window.upperBound - 1) / blockRows) {
            guard let rows = found[b] else {
                complete = false
                continue
            }
            count += rows.lazy.filter { window.contains(Int($0)) }.count
        }
        return (count, complete)
    }
}
