import SpytailCore

/// Parses, filters and formats blocks with a pipeline of its own (PCRE2 match data is per thread),
/// writing into each block's output buffers. Used by one thread at a time.
final class BlockWorker: @unchecked Sendable {
    let pipeline: EntryPipeline
    private let sinks: [BufferingSink]

    init(config: CompiledConfig, formatters: [any EntryFormatter], window: TimeWindow?, recentCapacity: Int? = nil) {
        sinks = formatters.map { BufferingSink(formatter: $0) }
        pipeline = EntryPipeline(config: config, sinks: sinks, window: window)
        if let recentCapacity { pipeline.tap = RecentTap(vocabulary: config.rules.vocabulary, capacity: recentCapacity) }
    }

    func process(_ block: LineBlock) {
        for (sink, output) in zip(sinks, block.outputs) { sink.target = output }
        do {
            try pipeline.process(block)
        } catch {
            preconditionFailure("buffering sinks do not fail: \(error)")
        }
        if let tap = pipeline.tap { block.recent = tap.take() }
    }

    /// Formats a gap record into `block`'s outputs (every output, whatever the filters say).
    func process(_ gap: GapReport, into block: LineBlock) {
        for (sink, output) in zip(sinks, block.outputs) { sink.target = output }
        do {
            try pipeline.processGap(gap)
        } catch {
            preconditionFailure("buffering sinks do not fail: \(error)")
        }
        if let tap = pipeline.tap { block.recent = tap.take() }
    }
}
