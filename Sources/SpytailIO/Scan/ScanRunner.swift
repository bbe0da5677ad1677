import SpytailCore

/// Reads files to their end, one after the other, through a pipeline: `spytail scan`.
/// A file that fails is reported and the scan goes on with the next one; only a failing output stops it.
public final class ScanRunner {
    let pipeline: EntryPipeline
    let events: any EventReporter
    private let buffer: UnsafeMutableRawBufferPointer

    public init(pipeline: EntryPipeline, events: any EventReporter, chunkSize: Int = 256 * 1024) {
        self.pipeline = pipeline
        self.events = events
        buffer = .allocate(byteCount: max(chunkSize, Fingerprint.headLimit), alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// Reads every path in order, then flushes the outputs.
    public func run(paths: [String]) throws(SinkError) -> ScanReport {
        var report = ScanReport()
        for path in paths { try read(path, into: &report) }
        try pipeline.flush()
        return report
    }

    private func read(_ path: String, into report: inout ScanReport) throws(SinkError) {
        let source: any ByteSource
        do {
            source = try FileOpener.open(path)
        } catch {
            report.errors.append(error)
            events.report(.readFailed(error))
            return
        }
        events.report(.fileStarted(path: path, compressed: source.isCompressed))
        var failure: ReadError?
        var (filled, atEnd) = (0, false)
        do { (filled, atEnd) = try readHead(source) } catch { failure = error; atEnd = true }
        let head = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: filled)
        guard let fingerprint = Fingerprint.of(head: head, complete: atEnd) else {
            finish(path, lines: 0, bytes: 0, failure, &report)
            return
        }
        var stream = pipeline.makeStream(for: SourceFile(path: path, fingerprint: fingerprint))
        var bytes = Int64(filled)
        try stream.push(head, process)
        while failure == nil {
            let n: Int
            do { n = try source.read(into: buffer) } catch { failure = error; break }
            if n == 0 { break }
            bytes += Int64(n)
            try stream.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n), process)
            events.report(.progress(path: path, bytes: bytes, lines: stream.lineCount))
        }
        try stream.finish(process)
        finish(path, lines: stream.lineCount, bytes: bytes, failure, &report)
    }

    private func process(_ entry: inout SpyEntry) throws(SinkError) {
        try pipeline.process(&entry)
    }

    private func finish(_ path: String, lines: Int, bytes: Int64, _ failure: ReadError?, _ report: inout ScanReport) {
        report.filesRead += 1
        report.linesRead += lines
        report.bytesRead += bytes
        if let failure {
            report.errors.append(failure)
            events.report(.readFailed(failure))
        }
        events.report(.fileFinished(path: path, lines: lines, bytes: bytes))
    }

    /// Reads until the head decides the fingerprint (a newline, or `Fingerprint.headLimit` bytes) or the
    /// file ends. Returns the bytes in `buffer` and whether the file ended.
    private func readHead(_ source: any ByteSource) throws(ReadError) -> (Int, Bool) {
        var filled = 0
        while true {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { return (filled, true) }
            let before = filled
            filled += n
            let fresh = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + before, count: n)
            if filled >= Fingerprint.headLimit || filled == buffer.count || fresh.contains(0x0A) { return (filled, false) }
        }
    }
}
