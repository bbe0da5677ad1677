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

    /// Sums the counters of pipelines that shared the work.
    public static func + (a: PipelineStats, b: PipelineStats) -> PipelineStats {
        var sum = a
        sum.entries += b.entries
        sum.outsideWindow += b.outsideWindow
        sum.gaps += b.gaps
        sum.excludedByFilter = zip(a.excludedByFilter, b.excludedByFilter).map(+)
        sum.writtenByOutput = zip(a.writtenByOutput, b.writtenByOutput).map(+)
        sum.byCategory = (0..<max(a.byCategory.count, b.byCategory.count)).map {
            ($0 < a.byCategory.count ? a.byCategory[$0] : 0) + ($0 < b.byCategory.count ? b.byCategory[$0] : 0)
        }
        return sum
    }

    public init(filters: Int, outputs: Int, categories: Int = 0) {
        excludedByFilter = Array(repeating: 0, count: filters)
        writtenByOutput = Array(repeating: 0, count: outputs)
        byCategory = Array(repeating: 0, count: categories)
    }

    mutating func count(category: Int) {
        if category < byCategory.count { byCategory[category] += 1 }
    }
}
