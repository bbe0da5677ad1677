/// What a pipeline did, for the summary: entries seen, dropped by the time window, excluded per filter,
/// written per output.
public struct PipelineStats: Sendable, Equatable {
    public var entries = 0
    public var outsideWindow = 0
    /// Gap records emitted (bytes lost or skipped).
    public var gaps = 0
    public var excludedByFilter: [Int]
    public var writtenByOutput: [Int]

    /// Sums the counters of pipelines that shared the work.
    public static func + (a: PipelineStats, b: PipelineStats) -> PipelineStats {
        var sum = a
        sum.entries += b.entries
        sum.outsideWindow += b.outsideWindow
        sum.gaps += b.gaps
        sum.excludedByFilter = zip(a.excludedByFilter, b.excludedByFilter).map(+)
        sum.writtenByOutput = zip(a.writtenByOutput, b.writtenByOutput).map(+)
        return sum
    }

    public init(filters: Int, outputs: Int) {
        excludedByFilter = Array(repeating: 0, count: filters)
        writtenByOutput = Array(repeating: 0, count: outputs)
    }
}
