/// What a pipeline did, for the summary: entries seen, dropped by the time window, excluded per filter,
/// written per output.
public struct PipelineStats: Sendable, Equatable {
    public var entries = 0
    public var outsideWindow = 0
    /// Gap records emitted (bytes lost or skipped).
    public var gaps = 0
    public var excludedByFilter: [Int]
    public var writtenByOutput: [Int]
    /// Entries classified per category index (before the filters; gap records under `gap`).
    public var byCategory: [Int]
    /// Lines that did not parse in their source's format (json, logfmt), by `SourceFile.source` + 1 (0: no source).
    public var parseErrorsBySource: [Int] = []

    /// Sums the counters of pipelines that shared the work.
    public static func + (a: PipelineStats, b: PipelineStats) -> PipelineStats {
        var sum = a
        sum.entries += b.entries
        sum.outsideWindow += b.outsideWindow
        sum.gaps += b.gaps
        sum.excludedByFilter = zip(a.excludedByFilter, b.excludedByFilter).map(+)
        sum.writtenByOutput = zip(a.writtenByOutput, b.writtenByOutput).map(+)
        sum.byCategory = Self.sum(a.byCategory, b.byCategory)
        sum.parseErrorsBySource = Self.sum(a.parseErrorsBySource, b.parseErrorsBySource)
        return sum
    }

    public init(filters: Int, outputs: Int, categories: Int = 0) {
        excludedByFilter = Array(repeating: 0, count: filters)
        writtenByOutput = Array(repeating: 0, count: outputs)
        byCategory = Array(repeating: 0, count: categories)
    }

    /// Element-wise sum of two counter arrays of possibly different lengths.
    public static func sum(_ a: [Int], _ b: [Int]) -> [Int] {
        (0..<max(a.count, b.count)).map { ($0 < a.count ? a[$0] : 0) + ($0 < b.count ? b[$0] : 0) }
    }

    /// All lines that did not parse.
    public var parseErrors: Int { parseErrorsBySource.reduce(0, +) }

    mutating func countParseError(source: Int) {
        let slot = max(0, source + 1)
        if slot >= parseErrorsBySource.count { parseErrorsBySource += Array(repeating: 0, count: slot + 1 - parseErrorsBySource.count) }
        parseErrorsBySource[slot] += 1
    }

    mutating func count(category: Int) {
        if category < byCategory.count { byCategory[category] += 1 }
    }
}
