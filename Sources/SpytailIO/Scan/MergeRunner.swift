import SpytailCore

/// `scan --merge`: several files read as one stream ordered by the entries' timestamps (a k-way merge), with
/// the same parsers, rules, filters and outputs as `scan`. Every file is open at once and read a chunk at a
/// time as its entries are needed; each keeps its own order, so a rotated chain (oldest first) stays in order
/// and an entry without a timestamp stays right after the entry before it in its file (it sorts by that
/// entry's time; the first ones of a file go first). Equal times keep the order of the files as given.
///
/// Runs on this thread alone: the merge decides what goes out next entry by entry, which blocks of whole
/// entries parsed in parallel (`ScanRunner`) cannot.
public final class MergeRunner {
    /// One queued entry (or gap) of a file, with the time it sorts by.
    private enum Item {
        case entry(SpyEntry)
        case gap(GapReport)
    }

    /// One file: its reader, its entry stream, and its entries read but not yet out.
    private final class Cursor {
        let path: String
        let source: any ByteSource
        let pipeline: EntryPipeline
        var stream: EntryStream
        let file: SourceFile
        var queue: [(time: Int64, item: Item)] = []
        var next = 0
        /// The time of the last entry queued that had one (an entry without one sorts by it).
        var lastTime = Int64.min
        var ended = false
        var bytes: Int64 = 0

        init(path: String, source: any ByteSource, file: SourceFile, pipeline: EntryPipeline) {
            self.path = path
            self.source = source
            self.file = file
            self.pipeline = pipeline
            stream = pipeline.makeStream(for: file)
        }

        var head: (time: Int64, item: Item)? { next < queue.count ? queue[next] : nil }

        /// Queues the entries of `chunk` that the pipeline admits (classified, inside the time window).
        func push(_ chunk: UnsafeBufferPointer<UInt8>) {
            stream.push(chunk) { entry in queue(&entry) }
        }

        func finish() {
            stream.finish { entry in queue(&entry) }
            ended = true
        }

        private func queue(_ entry: inout SpyEntry) {
            guard pipeline.admit(&entry) else { return }
            if let time = entry.time { lastTime = time }
            queue.append((lastTime, .entry(entry)))
        }

        /// Reading stopped on damaged data: what was read goes out (a last line cut by the damage too, as `scan`
        /// writes it), then a gap, in its place in time.
        func fail(at offset: Int64) {
            stream.finish { entry in queue(&entry) }
            queue.append((lastTime, .gap(GapReport(file: file, offset: offset, bytes: nil, reason: .damaged))))
            ended = true
        }
    }

    private let config: CompiledConfig
    private let sinks: [any EntrySink]
    private let window: TimeWindow?
    private let events: any EventReporter
    /// Says gaps and keeps the counters of files that are not read (every file has a pipeline of its own, so
    /// that the time window's rule for entries without a timestamp looks at the entry before in the same file).
    private let base: EntryPipeline
    private var pipelines: [EntryPipeline] = []
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read from a file at a time: every file holds this much, and its entries, while the merge runs.
    public static let chunkSize = 64 * 1024

    public init(config: CompiledConfig, outputs: [OpenOutput], window: TimeWindow? = nil, events: any EventReporter) {
        self.config = config
        self.window = window
        self.events = events
        sinks = outputs.map { $0.makeSink() }
        base = EntryPipeline(config: config, sinks: sinks, window: window, readsTime: true)
        buffer = .allocate(byteCount: max(Self.chunkSize, Fingerprint.headLimit), alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// Counters summed over the files.
    public var statistics: PipelineStats { pipelines.reduce(base.statistics) { $0 + $1.statistics } }
    public var filterDescriptions: [String] { base.filterDescriptions }

    /// Reads `files` and writes their entries in time order; then flushes every output.
    public func run(files: [(path: String, source: Int)]) throws(SinkError) -> ScanReport {
        var report = ScanReport()
        var cursors: [Cursor] = []
        for (path, source) in files {
            if let cursor = open(path, source: source, into: &report) { cursors.append(cursor) }
        }
        var heap = MergeHeap()
        for index in cursors.indices {
            refill(cursors[index], into: &report)
            if let head = cursors[index].head { heap.push(time: head.time, cursor: index) }
        }
        while let index = heap.popMin() {
            let cursor = cursors[index]
            let item = cursor.queue[cursor.next].item
            cursor.next += 1
            switch item {
            case .entry(let entry): try cursor.pipeline.deliver(entry)
            case .gap(let gap): try base.processGap(gap)
            }
            refill(cursor, into: &report)
            if let head = cursor.head { heap.push(time: head.time, cursor: index) }
        }
        for sink in sinks { try sink.flush() }
        return report
    }

    /// Opens `path` and queues the entries of its first bytes; nil when it cannot be read or is empty.
    private func open(_ path: String, source sourceIndex: Int, into report: inout ScanReport) -> Cursor? {
        guard let source = report.open(path, events: events) else { return nil }
        let head: Fingerprinter.Head
        do {
            head = try Fingerprinter.head(of: source, into: buffer)
        } catch {
            finish(path, lines: 0, bytes: 0, error, &report)
            return nil
        }
        guard let fingerprint = head.fingerprint else {
            finish(path, lines: 0, bytes: 0, nil, &report)
            return nil
        }
        let pipeline = EntryPipeline(config: pipelines.isEmpty ? config : ScanRunner.recompile(config), sinks: sinks, window: window,
                                     readsTime: true)
        pipelines.append(pipeline)
        let cursor = Cursor(path: path, source: source, file: SourceFile(path: path, fingerprint: fingerprint, source: sourceIndex),
                            pipeline: pipeline)
        cursor.bytes = Int64(head.count)
        cursor.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: head.count))
        return cursor
    }

    /// Reads `cursor`'s file until it has an entry queued or ends.
    private func refill(_ cursor: Cursor, into report: inout ScanReport) {
        guard cursor.head == nil else { return }
        cursor.queue.removeAll(keepingCapacity: true)
        cursor.next = 0
        while cursor.queue.isEmpty && !cursor.ended {
            let n: Int
            do {
                n = try cursor.source.read(into: buffer)
            } catch {
                cursor.fail(at: cursor.bytes)
                finish(cursor.path, lines: cursor.stream.lineCount, bytes: cursor.bytes, error, &report)
                return
            }
            if n == 0 {
                cursor.finish()
                finish(cursor.path, lines: cursor.stream.lineCount, bytes: cursor.bytes, nil, &report)
                return
            }
            cursor.bytes += Int64(n)
            cursor.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
            events.report(.progress(path: cursor.path, bytes: cursor.bytes, lines: cursor.stream.lineCount))
        }
    }

    private func finish(_ path: String, lines: Int, bytes: Int64, _ failure: ReadError?, _ report: inout ScanReport) {
        report.finished(path, lines: lines, bytes: bytes, failure: failure, events: events)
    }
}
