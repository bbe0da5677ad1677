import SpytailCore

/// Reads files to their end, one after the other, through the config's rules: `spytail scan`.
///
/// This thread reads (and inflates), splits lines, marks continuation lines and cuts blocks of whole
/// entries; `workers` threads parse, filter and format blocks in parallel, each with its own compiled
/// config; this thread writes finished blocks strictly in order, with at most `2 × workers + 1` blocks in
/// flight, so memory stays flat. With 0 workers the same steps run inline on this thread (used when a
/// time window makes entries depend on the one before, and by tests to compare both modes).
///
/// A file that fails is reported and the scan goes on with the next one; only a failing output stops it.
public final class ScanRunner: BlockSink {
    /// A block waiting for its worker, and the signal that it is done.
    private struct InFlight {
        let block: LineBlock
        let done: Completion
    }

    let outputs: [OpenOutput]
    let events: any EventReporter
    let blockBytes: Int
    private let workers: [BlockWorker]
    private let threads: WorkerThreads?
    private let queue = BlockingQueue<InFlightBox>()
    /// The config as compiled for this (the reading) thread: each file's parser gives its line limit and
    /// multiline rule.
    private let config: CompiledConfig
    private let maxInFlight: Int
    private var inFlight: [InFlight] = []
    private var spare: [LineBlock] = []
    private var stopped = false
    private let buffer: UnsafeMutableRawBufferPointer

    /// Called after each block is written, with the entries its worker copied for viewers (`recentCapacity`).
    public var onBlockWritten: ((_ recent: RecentBatch?, _ dropped: Int) -> Void)?

    /// Input bytes in a block. With `2 × workers + 1` blocks in flight, each with its formatted output, this
    /// sets most of a scan's own memory. Measured with spytail-bench's workloads, interleaved runs, medians:
    /// 192 KiB peaks 1.0 MB lower than 256 KiB on W1 and 1.6 MB lower on W2 at the same speed (W1 0.675 s
    /// vs 0.665 s, W2 0.685 s both); 128 KiB saves 0.5 MB more but W2 took 5–9 % longer (not profiled; likely
    /// the hand-offs per block, with the inflating thread on the same two cores).
    public static let defaultBlockBytes = 192 * 1024

    /// How many nice levels below this (the reading) thread the workers run. With two workers on two cores,
    /// three threads are busy, and at equal priority the one that reads, cuts and writes every block got two
    /// thirds of a core while it was the slowest step. Measured (4 interleaved rounds, medians, 2026-11-26):
    /// W1 0.68 → 0.58 s, W2 0.85 → 0.77 s, W4 CRI 1.17 → 0.92 s, Docker 1.14 → 1.07 s at +10; +5 gained about
    /// half of that, +19 no more. It also means a scan's parsing yields to other busy processes sooner.
    static let workerNiceIncrement: Int32 = 10

    public init(config: CompiledConfig, outputs: [OpenOutput], window: TimeWindow? = nil, events: any EventReporter,
                workers: Int = WorkerThreads.availableCores, blockBytes: Int = ScanRunner.defaultBlockBytes,
                chunkSize: Int = 256 * 1024,
                recentCapacity: Int? = nil) {
        self.outputs = outputs
        self.events = events
        self.blockBytes = blockBytes
        let threadCount = window == nil ? max(0, workers) : 0
        let formatters = outputs.map(\.formatter)
        // Each worker compiles the config again: compiled regexes hold per-thread match data.
        self.workers = (0..<max(1, threadCount)).map { i in
            BlockWorker(config: i == 0 ? config : Self.recompile(config), formatters: formatters, window: window,
                        recentCapacity: recentCapacity)
        }
        self.config = config
        maxInFlight = 2 * threadCount + 1
        buffer = .allocate(byteCount: max(chunkSize, Fingerprint.headLimit), alignment: 64)
        if threadCount > 0 {
            let (queue, workers) = (self.queue, self.workers)
            threads = WorkerThreads(count: threadCount, niceIncrement: Self.workerNiceIncrement) { index in
                while let item = queue.pop() {
                    workers[index].process(item.block)
                    item.done.signal()
                }
            }
        } else {
            threads = nil
        }
    }

    deinit {
        stopThreads()
        buffer.deallocate()
    }

    /// Counters summed over the workers.
    public var statistics: PipelineStats { workers.map(\.pipeline.statistics).dropFirst().reduce(workers[0].pipeline.statistics, +) }
    public var filterDescriptions: [String] { workers[0].pipeline.filterDescriptions }

    /// Reads every path in order (files of no configured source) and writes everything; then the workers stop.
    public func run(paths: [String]) throws(SinkError) -> ScanReport {
        try run(files: paths.map { ($0, SourceFile.unnamed) })
    }

    /// Reads every file in order, each with its source's parser, and writes everything; then the workers stop.
    public func run(files: [(path: String, source: Int)]) throws(SinkError) -> ScanReport {
        defer { stopThreads() }
        var report = ScanReport()
        for (path, source) in files { try read(path, source: source, into: &report) }
        while !inFlight.isEmpty { try writeOldest() }
        return report
    }

    /// What reading a backlog did.
    public struct Backlog: Sendable {
        /// Decompressed bytes read past the start offset.
        public var bytesRead: Int64
        /// Where a reader that goes on following the file resumes (with `holdingLastEntry`), else the end.
        public var resumeOffset: Int64
        /// Reading stopped on damaged data (a gap record was written after everything before it).
        public var failure: ReadError?
        /// Lines split (a held last entry's lines included).
        public var lines: Int
    }

    /// Reads `source` (whose content is `file`) from decompressed `offset` to its end through the workers,
    /// as `scan` reads a file, and writes everything in order before returning. With `holdingLastEntry`
    /// (a live file that goes on growing) its last entry is not written: `resumeOffset` says where it starts.
    /// `run` uses this to catch up a backlog (history, a rotated member, a live file's unread bytes).
    /// `position` is where `source` starts in the decompressed stream (a plain file opened at an offset).
    public func readBacklog(_ source: any ByteSource, as file: SourceFile, from offset: Int64, startingAt position: Int64 = 0,
                            holdingLastEntry: Bool) throws(SinkError) -> Backlog {
        let parser = config.parser(forSource: file.source)
        var cutter = BlockCutter(file: file, continuation: parser.continuation, maxLineBytes: parser.maxLineBytes,
                                 container: parser.container, blockBytes: blockBytes,
                                 startOffset: offset)
        var position = position, failure: ReadError?
        let reader = readingAhead(source)
        defer { (reader as? ReadAhead)?.close() }
        while true {
            let n: Int
            do { n = try reader.read(into: buffer) } catch { failure = error; break }
            if n == 0 { break }
            let skip = Int(max(0, min(Int64(n), offset - position)))
            position += Int64(n)
            guard skip < n else { continue }
            let bytes = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            try cutter.push(UnsafeBufferPointer(rebasing: bytes[skip...]), self)
        }
        let resume: Int64
        if holdingLastEntry && failure == nil {
            resume = try cutter.finishHoldingLastEntry(self)
        } else {
            try cutter.finish(self)
            resume = max(offset, position)
        }
        if failure != nil { try writeGap(GapReport(file: file, offset: max(offset, position), bytes: nil, reason: .damaged)) }
        while !inFlight.isEmpty { try writeOldest() }
        return Backlog(bytesRead: max(0, position - offset), resumeOffset: resume, failure: failure, lines: cutter.lineCount)
    }

    /// Ends the worker threads (also done when the runner goes away).
    public func close() { stopThreads() }

    private func stopThreads() {
        guard let threads, !stopped else { return }
        stopped = true
        queue.close(consumers: workers.count)
        threads.join()
    }

    // MARK: reading

    private func read(_ path: String, source sourceIndex: Int, into report: inout ScanReport) throws(SinkError) {
        guard let source = report.open(path, events: events) else { return }
        var failure: ReadError?
        var filled = 0, found: Fingerprint?
        do {
            let head = try Fingerprinter.head(of: source, into: buffer)
            (filled, found) = (head.count, head.fingerprint)
        } catch {
            failure = error
        }
        let head = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: filled)
        guard let fingerprint = found else {
            finish(path, lines: 0, bytes: 0, failure, &report)
            return
        }
        let file = SourceFile(path: path, fingerprint: fingerprint, source: sourceIndex)
        let parser = config.parser(forSource: sourceIndex)
        var cutter = BlockCutter(file: file, continuation: parser.continuation, maxLineBytes: parser.maxLineBytes,
                                 container: parser.container, blockBytes: blockBytes)
        var bytes = Int64(filled)
        try cutter.push(head, self)
        let reader = readingAhead(source)
        defer { (reader as? ReadAhead)?.close() }
        while failure == nil {
            let n: Int
            do { n = try reader.read(into: buffer) } catch { failure = error; break }
            if n == 0 { break }
            bytes += Int64(n)
            try cutter.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n), self)
            events.report(.progress(path: path, bytes: bytes, lines: cutter.lineCount))
        }
        try cutter.finish(self)
        if failure != nil {
            try writeGap(GapReport(file: file, offset: bytes, bytes: nil, reason: .damaged))
        }
        finish(path, lines: cutter.lineCount, bytes: bytes, failure, &report)
    }

    /// A compressed source is inflated on a thread of its own while this one splits and cuts (when
    /// workers parse, i.e. there are cores to spare); a plain one is read here (a copy costs less than
    /// handing it over).
    private func readingAhead(_ source: any ByteSource) -> any ByteSource {
        source.isCompressed && threads != nil ? ReadAhead(source, chunkSize: buffer.count) : source
    }

    /// A `gap` record to every output, after everything read before it.
    private func writeGap(_ gap: GapReport) throws(SinkError) {
        while !inFlight.isEmpty { try writeOldest() }
        let block = try takeBlock(for: gap.file)
        workers[0].process(gap, into: block)
        try write(block)
    }

    private func finish(_ path: String, lines: Int, bytes: Int64, _ failure: ReadError?, _ report: inout ScanReport) {
        report.finished(path, lines: lines, bytes: bytes, failure: failure, events: events)
    }

    // MARK: blocks

    /// An empty block for `file`: a spare one, or a new one while fewer than the limit exist.
    func takeBlock(for file: SourceFile) throws(SinkError) -> LineBlock {
        if spare.isEmpty && inFlight.count >= maxInFlight { try writeOldest() }
        if let block = spare.popLast() {
            block.reset(for: file)
            return block
        }
        return LineBlock(file: file, routes: outputs.count, capacity: blockBytes)
    }

    /// Hands a full block to a worker (or parses it here without workers).
    func submit(_ block: LineBlock) throws(SinkError) {
        guard threads != nil else {
            workers[0].process(block)
            try write(block)
            return
        }
        let item = InFlight(block: block, done: Completion())
        inFlight.append(item)
        queue.push(InFlightBox(block: block, done: item.done))
    }

    private func writeOldest() throws(SinkError) {
        let item = inFlight.removeFirst()
        item.done.wait()
        try write(item.block)
    }

    private func write(_ block: LineBlock) throws(SinkError) {
        for (output, buffer) in zip(outputs, block.outputs) where buffer.count > 0 {
            try output.writer.forFile(block.file).write(buffer.bytes)  // a block holds one file's entries
        }
        if let onBlockWritten { onBlockWritten(block.recent.batch, block.recent.dropped) }
        block.recent = (nil, 0)  // a spare block does not keep its entries alive: the viewers' ring holds them
        spare.append(block)
    }

    static func recompile(_ config: CompiledConfig) -> CompiledConfig {
        do {
            return try CompiledConfig(config.config)
        } catch {
            preconditionFailure("a config that compiled once compiles again: \(error)")
        }
    }
}

/// What travels through the work queue (Sendable: the block is handed over, never shared).
struct InFlightBox: Sendable {
    let block: LineBlock
    let done: Completion
}
