import SpytailCore

/// Counters of `run` that outlive a pipeline: what backlogs (their own scan runners) and pipelines replaced
/// by a reload counted, summed by category name, filter index and output index, plus lines and bytes read per
/// source. The live pipeline's figures are added when a snapshot is made, so totals never go back.
struct RunTallies {
    var linesRead: [String: Int] = [:]
    var bytesRead: [String: Int64] = [:]
    var entriesByCategory: [String: Int] = [:]
    var excludedByFilter: [Int] = []
    var writtenByOutput: [Int] = []
    /// Lines that did not parse, by source name (`-`: files of no source).
    var parseErrorsBySource: [String: Int] = [:]

    mutating func read(source: String, bytes: Int64, lines: Int) {
        guard bytes > 0 || lines > 0 else { return }
        bytesRead[source, default: 0] += bytes
        linesRead[source, default: 0] += lines
    }

    mutating func add(_ stats: PipelineStats, vocabulary: Vocabulary) {
        for (index, count) in stats.byCategory.enumerated() where count > 0 {
            let name = index < vocabulary.categories.count ? vocabulary.categories[index].name : "#\(index)"
            entriesByCategory[name, default: 0] += count
        }
        for (slot, count) in stats.parseErrorsBySource.enumerated() where count > 0 {
            parseErrorsBySource[vocabulary.sourceName(slot - 1) ?? "-", default: 0] += count
        }
        excludedByFilter = Self.sum(excludedByFilter, stats.excludedByFilter)
        writtenByOutput = Self.sum(writtenByOutput, stats.writtenByOutput)
    }

    func adding(_ stats: PipelineStats, vocabulary: Vocabulary) -> RunTallies {
        var total = self
        total.add(stats, vocabulary: vocabulary)
        return total
    }

    static func sum(_ a: [Int], _ b: [Int]) -> [Int] { PipelineStats.sum(a, b) }
}
