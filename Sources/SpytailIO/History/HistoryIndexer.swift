import SpytailCore

/// Reads files to their end through the config's parsers, rules and filters (as `scan` does) and keeps a
/// `HistoryIndex` row for every entry the filters keep, instead of writing it: `spytail explore`'s first step.
/// A file that cannot be read, or a gzip that is damaged, is reported; what was read before stays, followed
/// by a gap row where reading stopped. A gzip file's seek points are recorded on the way (`GzipSeekPoints`).
public final class HistoryIndexer {
    private let pipeline: EntryPipeline
    private let events: any EventReporter
    private let gapCategory: Int
    private let buffer: UnsafeMutableRawBufferPointer
    /// Decompressed bytes between a gzip file's seek points; nil: none recorded.
    private let seekPointSpacing: Int64?
    /// The seek points of each gzip file indexed, by its number in the index's `files`.
    public private(set) var seekPoints: [Int: GzipSeekPoints] = [:]
    private var filesStarted = 0
    /// The live files to follow (`explore --follow`), with their open reading state, in reading order.
    private var followed: [(path: String, source: Int, open: HistoryFollower.Open?)] = []

    /// The spacing of seek points `explore` uses by default: 4 MiB (about 1.4% of the decompressed size in memory).
    public static let defaultSeekPointSpacing: Int64 = 4 << 20

    public init(config: CompiledConfig, events: any EventReporter, seekPointSpacing: Int64? = defaultSeekPointSpacing) {
        pipeline = Self.pipeline(config)
        self.events = events
        self.seekPointSpacing = seekPointSpacing
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

    /// Indexes `files` in the order given (a rotated chain oldest first). The plain files among `follow` are
    /// left open at their end for `follower` (their last entry, when it may still grow, waits there).
    public func index(files: [(path: String, source: Int)], follow: Set<String> = []) -> (index: HistoryIndex, report: ScanReport) {
        var builder = HistoryIndexBuilder()
        var report = ScanReport()
        for (path, source) in files { read(path, source: source, follow: follow.contains(path), into: &builder, &report) }
        return (builder.build(), report)
    }

    /// What goes on reading the followed files into the index `index` built (nil: none followed).
    public func follower(config: CompiledConfig) -> HistoryFollower? {
        followed.isEmpty ? nil : HistoryFollower(config: config, files: followed)
    }

    private func read(_ path: String, source sourceIndex: Int, follow: Bool, into builder: inout HistoryIndexBuilder,
                      _ report: inout ScanReport) {
        guard let source = report.open(path, events: events) else {
            if follow { followed.append((path, sourceIndex, nil)) }  // it may appear later
            return
        }
        let plain = source as? PlainFileReader
        let follow = follow && plain != nil
        let head: Fingerprinter.Head
        do {
            head = try Fingerprinter.head(of: source, into: buffer)
        } catch {
            report.finished(path, lines: 0, bytes: 0, failure: error, events: events)
            return
        }
        // A followed file's first line may still be being written: it is its fingerprint only once complete.
        let complete = follow ? Fingerprint.of(head: UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: head.count),
                                               complete: false) : head.fingerprint
        guard let fingerprint = complete else {
            if follow { followed.append((path, sourceIndex, nil)) }
            report.finished(path, lines: 0, bytes: 0, failure: nil, events: events)
            return
        }
        let file = SourceFile(path: path, fingerprint: fingerprint, source: sourceIndex)
        builder.startFile(file)
        if let seekPointSpacing, let gzip = source as? GzipReader {
            let points = GzipSeekPoints(spacing: seekPointSpacing)
            gzip.seekPoints = points
            seekPoints[filesStarted] = points
        }
        filesStarted += 1
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
        if follow, let plain, failure == nil, let info = try? Syscall.fstat(plain.fd) {
            // Left open: the follower reads on from here (the pending entry may still grow).
            followed.append((path, sourceIndex, HistoryFollower.Open(
                file: filesStarted - 1, reader: plain, stream: stream,
                identity: FileIdentity(info), end: bytes, lastData: .now)))
            builder.endFile(size: bytes)
            report.finished(path, lines: stream.lineCount, bytes: bytes, failure: nil, events: events)
            return
        }
        stream.finish { keep(&$0) }
        if failure != nil {
            builder.addGap(GapReport(file: file, offset: bytes, bytes: nil, reason: .damaged), category: gapCategory)
        }
        builder.endFile(size: bytes)
        report.finished(path, lines: stream.lineCount, bytes: bytes, failure: failure, events: events)
    }
}
