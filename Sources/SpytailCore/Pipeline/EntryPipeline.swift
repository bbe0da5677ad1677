/// Everything after assembly: classify an entry, apply the time window and the filters, and hand it to
/// every output whose `where` it meets. One pipeline per run, used from one thread.
public final class EntryPipeline {
    /// An output stream: its condition and its sink.
    public struct Route {
        public let condition: EntryCondition?
        public let sink: any EntrySink
        /// It has a `where` (an output without one costs nothing for it per entry).
        let filtered: Bool
        public init(condition: EntryCondition?, sink: any EntrySink) {
            self.condition = condition
            self.sink = sink
            filtered = condition != nil
        }
    }

    public let rules: RuleSet
    public let continuation: Regex?
    public let maxLineBytes: Int
    // Per-entry state of a pipeline that one thread uses at a time: the dynamic exclusivity check of a class
    // property costs a thread-local lookup on every access, ~10 % of `scan` (measured with perf), and
    // nothing here hands out an inout reference that could overlap another access.
    @exclusivity(unchecked) private var filters: FilterChain
    private let routes: [Route]
    /// Each route's `where` as a probe, at the route's index (one that matches everything for a route without).
    private let wheres: [ConditionProbe]
    private let window: TimeWindow?
    private let readsTime: Bool
    @exclusivity(unchecked) private var lastInWindow = true
    @exclusivity(unchecked) private var stats: PipelineStats
    /// Copies what passes the filters for viewers (the HTTP face); nil when nobody can look.
    @exclusivity(unchecked) public var tap: RecentTap? {
        didSet { tapSource = tap.flatMap { recordSource(for: $0) } }
    }
    /// A route every entry reaches whose sink formats exactly the tap's records into a buffer that keeps
    /// them (a block's output): the tap copies its record instead of formatting the entry a second time.
    @exclusivity(unchecked) private var tapSource: (index: Int, sink: BufferingSink)?

    /// `readsTime`: parse every timestamp into `entry.time` (a time window does anyway).
    public init(rules: RuleSet, continuation: Regex?, maxLineBytes: Int, filters: [EntryCondition], routes: [Route],
                window: TimeWindow? = nil, readsTime: Bool = false) {
        self.readsTime = readsTime || window != nil
        self.rules = rules
        self.continuation = continuation
        self.maxLineBytes = maxLineBytes
        self.filters = FilterChain(filters)
        self.routes = routes
        wheres = routes.map { ConditionProbe($0.condition ?? .all([])) }
        self.window = window
        stats = PipelineStats(filters: filters.count, outputs: routes.count, categories: rules.vocabulary.categories.count)
    }

    /// Builds the pipeline a compiled config describes, with one sink per configured output.
    public convenience init(config: CompiledConfig, sinks: [any EntrySink], window: TimeWindow? = nil, readsTime: Bool = false) {
        precondition(sinks.count == config.config.outputs.count, "one sink per output")
        let routes = zip(config.outputConditions, sinks).map { Route(condition: $0, sink: $1) }
        self.init(rules: config.rules, continuation: config.continuation, maxLineBytes: config.config.parse.maxLineBytes,
                  filters: config.filters, routes: routes, window: window,
                  readsTime: readsTime || config.config.outputs.contains { $0.destination.carriesParsedTime })
    }

    /// Counters so far, filter counts included.
    public var statistics: PipelineStats {
        var s = stats
        s.excludedByFilter = filters.excluded
        return s
    }

    /// Describes each filter (for the summary).
    public var filterDescriptions: [String] { filters.conditions.map(\.description) }

    /// A fresh entry stream for one file, set up with the line limit and multiline rule of its source's parser.
    public func makeStream(for file: SourceFile, startOffset: Int64 = 0) -> EntryStream {
        let parser = rules.parser(forSource: file.source)
        return EntryStream(file: file, maxLineBytes: parser.maxLineBytes, continuation: parser.continuation, container: parser.container,
                           startOffset: startOffset)
    }

    /// Classifies, filters and routes one assembled entry.
    public func process(_ entry: inout SpyEntry) throws(SinkError) {
        if admit(&entry) { try route(entry) }
    }

    /// Classifies one assembled entry and applies the time window: true when it goes on to `deliver` (the
    /// first half of `process`, for a caller that orders entries before they go out: `scan --merge`).
    public func admit(_ entry: inout SpyEntry) -> Bool {
        stats.entries += 1
        rules.classify(&entry, readTime: readsTime)
        if entry.parseError != nil { stats.countParseError(source: entry.file.source) }
        if let window {
            if let time = entry.time { lastInWindow = window.contains(time) }
            guard lastInWindow else {
                stats.outsideWindow += 1
                return false
            }
        }
        stats.count(category: entry.category)
        return true
    }

    /// Whether the config's filters keep an entry `admit` let through (what `deliver` checks first): for a caller
    /// that keeps entries somewhere else than the outputs (`spytail explore`'s index).
    public func keeps(_ entry: borrowing SpyEntry) -> Bool {
        entry.text.withUnsafeBufferPointer { !filters.excludes(entry, text: $0) }
    }

    /// Filters an entry `admit` let through and hands it to the outputs (the second half of `process`).
    public func deliver(_ entry: borrowing SpyEntry) throws(SinkError) { try route(entry) }

    /// Filters a classified entry and hands it to every output whose `where` it meets. `borrowing`: the
    /// entry is read in place, never copied (a copy costs a retain and a release of each of its buffers).
    private func route(_ entry: borrowing SpyEntry) throws(SinkError) {
        try entry.text.withUnsafeBufferPointer { (text) throws(SinkError) in
            if filters.excludes(entry, text: text) { return }
            let tapsAt = tapSource?.index
            if tapsAt == nil { tap?.observe(entry, text: text) }
            for index in routes.indices {
                // The route's probe is read in place (a copy of it retained and released its condition per entry).
                if routes[index].filtered {
                    let kept = wheres.withUnsafeBufferPointer { wheres in
                        entry.fields.withUnsafeBufferPointer { ConditionProbe.matches(wheres.baseAddress! + index, entry, text: text, fields: $0) }
                    }
                    if !kept { continue }
                }
                let sink = routes[index].sink
                if index == tapsAt, let source = tapSource, let tap {
                    let start = source.sink.target.count
                    try sink.consume(entry, text: text)
                    tap.observe(entry, text: text, record: UnsafeBufferPointer(rebasing: source.sink.target.bytes[start...]))
                } else {
                    try sink.consume(entry, text: text)
                }
                stats.writtenByOutput[index] += 1
            }
        }
    }

    /// Whether the tap takes an output's records as they are (see `tapSource`).
    var reusesOutputRecords: Bool { tapSource != nil }

    /// The route whose formatted records `tap` can take as they are, if any (see `tapSource`).
    private func recordSource(for tap: RecentTap) -> (index: Int, sink: BufferingSink)? {
        for (index, route) in routes.enumerated() where route.condition == nil {
            if let sink = route.sink as? BufferingSink, tap.formatsLike(sink.formatter) { return (index, sink) }
        }
        return nil
    }

    /// Parses, filters and routes every entry of `block`, whose lines the reader already split and
    /// marked. Entries never span blocks.
    public func process(_ block: LineBlock) throws(SinkError) {
        var assembler = EntryAssembler(file: block.file, continuation: nil, maxLineBytes: .max)
        try block.bytes.withUnsafeBufferPointer { (bytes) throws(SinkError) in
            for index in block.lines.indices {
                try assembler.add(block.line(index, in: bytes), continuation: block.lines[index].continuation) { (entry) throws(SinkError) in
                    try process(&entry)
                }
            }
        }
        try assembler.flush { (entry) throws(SinkError) in try process(&entry) }
    }

    /// Reports bytes that were lost or skipped as an entry of category `gap`, to every output: filters and
    /// `where` do not apply to it, because a stream with a hole must say so.
    public func processGap(_ gap: GapReport) throws(SinkError) {
        var entry = gap.entry(vocabulary: rules.vocabulary)
        stats.entries += 1
        stats.gaps += 1
        stats.count(category: entry.category)
        try entry.text.withUnsafeBufferPointer { (text) throws(SinkError) in
            tap?.observe(entry, text: text)
            for index in routes.indices {
                try routes[index].sink.consume(entry, text: text)
                stats.writtenByOutput[index] += 1
            }
        }
        entry.text.removeAll()
    }

    /// Why some output took no more and holds bytes back (the first such output's): stop feeding it until a
    /// `flush()` succeeds. nil: every output takes bytes.
    public var stall: SinkError? { routes.lazy.compactMap(\.sink.stall).first }
    /// Some output is full and holds bytes back.
    public var isStalled: Bool { stall != nil }

    /// Flushes every output.
    public func flush() throws(SinkError) {
        for route in routes { try route.sink.flush() }
    }

    /// Waits until every output's flushed bytes are on the disk (files only; see `ByteWriter.sync`).
    public func sync() throws(SinkError) {
        for route in routes { try route.sink.sync() }
    }
}
