import SpytailCore

/// Reads files to their end through the config's parsers, rules and filters (as `scan` does) and keeps a
/// `HistoryIndex` row for every entry the filters keep, instead of writing it: `spytail explore`'s first step.
/// A file that cannot be read, or a gzip that is damaged, is reported; what was read before stays, followed
/// by a gap row where reading stopped.
public final class HistoryIndexer {
    private let pipeline: EntryPipeline
    private let events: any EventReporter
    private let gapCategory: Int
    private let buffer: UnsafeMutableRawBufferPointer

    public init(config: CompiledConfig, events: any EventReporter) {
        pipeline = Self.pipeline(config)
        self.events = events
        gapCategory = config.rules.vocabulary.categoryIndex(named: GapReport.category) ?? 0
        buffer = .allocate(byteCount: 256 * 1024, alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// A pipeline that classifies (reading times) and filters, with no outputs.
    static func pipeline(_ config: CompiledConfig) -> EntryPipeline {
        EntryPipeline(rules: config.rules, continuation: config.continuation, maxLineBytes: config.config.parse.maxLineBytes,
                      filters: config.filters, routes: [], readsTime: true)
    }

    public var statistics: PipelineStats { pipeline.statistics }

    /// Indexes `files` in the order given (a rotated chain oldest first).
    public func index(files: [(path: String, source: Int)]) -> (index: HistoryIndex, report: ScanReport) {
        var builder = HistoryIndexBuilder()
        var report = ScanReport()
        for (path, source) in files { read(path, source: source, into: &builder, &report) }
        return (builder.build(), report)
    }

    private func read(_ path: String, source sourceIndex: Int, into builder: inout HistoryIndexBuilder, _ report: inout ScanReport) {
        guard let source = report.open(path, events: events) else { return }
        let head: Fingerprinter.Head
        do {
            head = try Fingerprinter.head(of: source, into: buffer)
        } catch {
            report.finished(path, lines: 0, bytes: 0, failure: error, events: events)
            return
        }
        guard let fingerprint = head.fingerprint else {
            report.finished(path, lines: 0, bytes: 0, failure: nil, events: events)
            return
        }
        let file = SourceFile(path: path, fingerprint: fingerprint, source: sourceIndex)
        builder.startFile(file)
        var stream = pipeline.makeStream(for: file)
        let pipeline = self.pipeline
        func keep(_ entry: inout SpyEntry) {
            if pipeline.admit(&entry) && pipeline.keeps(entry) {
                builder.add(offset: entry.offset, time: entry.time, category: entry.category, tags: entry.tags)
            }
        }
        var bytes = Int64(head.count)
        stream.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: head.count)) { keep(&$0) }
        var failure: ReadError?
        while true {
            let n: Int
            do {
                n = try source.read(into: buffer)
            } catch {
                failure = error
                break
            }
            if n == 0 { break }
            bytes += Int64(n)
            stream.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) { keep(&$0) }
            events.report(.progress(path: path, bytes: bytes, lines: stream.lineCount))
        }
        stream.finish { keep(&$0) }
        if failure != nil {
            builder.addGap(GapReport(file: file, offset: bytes, bytes: nil, reason: .damaged), category: gapCategory)
        }
        builder.endFile(size: bytes)
        report.finished(path, lines: stream.lineCount, bytes: bytes, failure: failure, events: events)
    }
}
