import SpytailCore

/// Where the block cutter gets empty blocks and hands full ones (the scan runner: workers, in-order writes).
protocol BlockSink: AnyObject {
    func takeBlock(for file: SourceFile) throws(SinkError) -> LineBlock
    func submit(_ block: LineBlock) throws(SinkError)
}

/// Splits one file's bytes into lines, marks continuation lines (`ContinuationRule`, as the assembler does),
/// and cuts blocks of whole entries (only before a head line), handing each full block to its sink.
struct BlockCutter {
    private var lines: LineSource
    private var blocks: Accumulator

    /// The block being filled and what the next line needs to know.
    private struct Accumulator {
        let file: SourceFile
        let rule: ContinuationRule
        let blockBytes: Int
        var block: LineBlock?
        /// Bytes of the entry open in this file (nil: none yet), which the next line may continue.
        var entryBytes: Int?

        mutating func add(_ line: Line, _ runner: some BlockSink) throws(SinkError) {
            let isContinuation = rule.continues(line, entryBytes: entryBytes)
            if !isContinuation, let full = block, full.byteCount >= blockBytes {
                try runner.submit(full)
                block = nil
            }
            if block == nil { block = try runner.takeBlock(for: file) }
            block!.append(line, continuation: isContinuation)
            entryBytes = isContinuation ? entryBytes! + 1 + line.bytes.count : line.bytes.count
        }

        mutating func submitLast(_ runner: some BlockSink) throws(SinkError) {
            if let block, !block.isEmpty { try runner.submit(block) }
            block = nil
        }

        /// Submits everything but the last entry and returns where that entry starts (nil: no line at all).
        /// A block starts with a head line, so the last entry is in the open block.
        mutating func submitAllButLastEntry(_ runner: some BlockSink) throws(SinkError) -> Int64? {
            guard let open = block, let head = open.lines.lastIndex(where: { !$0.continuation }) else { return nil }
            let start = open.lines[head].offset
            open.truncate(fromLine: head)
            try submitLast(runner)
            return start
        }
    }

    /// `container`: the file is a container runtime's log, whose joiner puts entries together (the multiline
    /// rule applies there).
    init(file: SourceFile, continuation: Regex?, maxLineBytes: Int, container: ContainerFormat? = nil, blockBytes: Int, startOffset: Int64 = 0) {
        lines = LineSource(maxLineBytes: maxLineBytes, container: container, continuation: continuation, startOffset: startOffset)
        blocks = Accumulator(file: file, rule: ContinuationRule(container == nil ? continuation : nil, maxLineBytes: maxLineBytes),
                             blockBytes: blockBytes)
    }

    var lineCount: Int { lines.linesEmitted }

    mutating func push(_ chunk: UnsafeBufferPointer<UInt8>, _ runner: some BlockSink) throws(SinkError) {
        try lines.push(chunk) { (line) throws(SinkError) in try blocks.add(line, runner) }
    }

    /// A live file's backlog read so far: every entry but the last goes out; returns the offset a reader that
    /// goes on following the file resumes at (the last entry's start, else a held partial line's). A container
    /// log's entries are complete when its joiner hands them out: all go out, and the reader resumes where the
    /// joiner's first open entry starts.
    mutating func finishHoldingLastEntry(_ runner: some BlockSink) throws(SinkError) -> Int64 {
        if lines.joinsEntries {
            try blocks.submitLast(runner)
            return lines.pendingOffset
        }
        return try blocks.submitAllButLastEntry(runner) ?? lines.pendingOffset
    }

    /// End of the file: the last line without newline, then the last block.
    mutating func finish(_ runner: some BlockSink) throws(SinkError) {
        try lines.finish { (line) throws(SinkError) in try blocks.add(line, runner) }
        try blocks.submitLast(runner)
    }
}
