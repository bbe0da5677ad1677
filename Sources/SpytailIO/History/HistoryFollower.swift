import Glibc
import SpytailCore

/// `spytail explore --follow`: keeps reading the live files after the history was indexed, so that their new
/// entries join the index (`HistoryIndex.append`). Each `poll` reads what the files gained since the last one;
/// the caller polls on a timer, under the lock that serializes the index's readers (`Explorer.follow`).
///
/// A followed file is read through the descriptor indexing opened, so a rotation by rename loses nothing: the
/// old file is read to its end, then the new file at the path is read from its start as a file of its own
/// (once its first line is complete: that line is its fingerprint). A file that was truncated (`copytruncate`:
/// it shrank, or no longer starts with its first line) gets a gap row where reading stopped, then its new
/// content is read the same way; its old content stays readable in the copy (`HistoryFileCursor` finds it).
/// An entry that waits for its continuation lines is handed out after the parser's multiline idle timeout, as
/// `run` does.
public final class HistoryFollower {
    /// A live file being read: its number in the index, its reader and the entry stream indexing left open.
    public struct Open {
        let file: Int
        let reader: PlainFileReader
        var stream: EntryStream
        let identity: FileIdentity
        /// Bytes read so far.
        var end: Int64
        var lastData: ContinuousClock.Instant
    }

    /// A path followed, and the file being read at it (nil: waiting for a file with a first line).
    final class Followed {
        let path: String
        let source: Int
        var open: Open?
        init(path: String, source: Int, open: Open?) {
            (self.path, self.source, self.open) = (path, source, open)
        }
    }

    private let pipeline: EntryPipeline
    private let config: CompiledConfig
    private let gapCategory: Int
    private var followed: [Followed]
    private let buffer: UnsafeMutableRawBufferPointer

    /// `files`: the live files, with what indexing left open of each (nil: the file had no complete line yet).
    init(config: CompiledConfig, files: [(path: String, source: Int, open: Open?)]) {
        self.config = config
        pipeline = HistoryIndexer.pipeline(config)
        gapCategory = config.rules.vocabulary.categoryIndex(named: GapReport.category) ?? 0
        followed = files.map { Followed(path: $0.path, source: $0.source, open: $0.open) }
        buffer = .allocate(byteCount: HistoryReader.chunkSize, alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// The paths followed.
    public var paths: [String] { followed.map(\.path) }

    /// Reads what every followed file gained into `index`; returns the rows appended.
    @discardableResult
    public func poll(into index: HistoryIndex, now: ContinuousClock.Instant = .now) -> Int {
        let before = index.count
        for entry in followed {
            if entry.open != nil { readOn(entry, into: index, now: now) }
            if entry.open == nil { start(entry, into: index, now: now) }
        }
        return index.count - before
    }

    /// Reads the open file's new bytes, unless it was truncated; at its end, looks whether the path still leads
    /// to it.
    private func readOn(_ followed: Followed, into index: HistoryIndex, now: ContinuousClock.Instant) {
        guard var open = followed.open else { return }
        let (file, fingerprint) = (open.file, index.files[open.file].fingerprint)
        if rewritten(open, fingerprint) {
            finishTruncated(&open, at: followed.path, into: index)
            followed.open = nil
            return
        }
        var gained = false
        while let n = try? open.reader.read(into: buffer), n > 0 {
            gained = true
            open.end += Int64(n)
            let end = open.end
            open.stream.push(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) {
                keep(&$0, file: file, end: end, index)
            }
        }
        index.noteRead(file: file, upTo: open.end)
        if gained { open.lastData = now }
        followed.open = gained ? open : settle(open, at: followed, into: index, now: now)
    }

    /// The open file was truncated (and maybe written again) since the last look. When a copy holds the content
    /// (logrotate's `copytruncate`), the rest is read from the copy; what was written between the copy and the
    /// truncation is lost either way: a gap row says so. The new content is read as a new file.
    private func finishTruncated(_ open: inout Open, at path: String, into index: HistoryIndex) {
        let file = open.file
        var reason = GapReport.Reason.truncated
        if let copy = MovedContent.find(index.files[file].fingerprint, near: path), let reader = try? FileOpener.open(copy) {
            reason = .copytruncate
            var skipped: Int64 = 0
            while let n = try? reader.read(into: buffer), n > 0 {
                let fresh = max(0, Int(skipped + Int64(n) - open.end))
                skipped += Int64(n)
                guard fresh > 0 else { continue }
                open.end += Int64(fresh)
                let end = open.end
                let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + (n - fresh), count: fresh)
                open.stream.push(chunk) { keep(&$0, file: file, end: end, index) }
            }
        }
        let end = open.end
        open.stream.finish { keep(&$0, file: file, end: end, index) }
        index.noteRead(file: file, upTo: end)
        index.appendGap(GapReport(file: index.files[file], offset: end, bytes: nil, reason: reason), file: file, category: gapCategory)
    }

    /// Whether the open file is shorter than what was read, or no longer starts with its first line.
    private func rewritten(_ open: Open, _ fingerprint: Fingerprint) -> Bool {
        guard let info = try? Syscall.fstat(open.reader.fd) else { return false }
        if Int64(info.st_size) < open.end { return true }
        return Fingerprinter.ofDescriptor(open.reader.fd, complete: false)?.fingerprint != fingerprint
    }

    /// The open file has no new bytes: it goes on being read (an entry waiting past its idle timeout handed
    /// out), or, when the path leads elsewhere now (rotated, deleted), it is finished (nil: the next poll
    /// starts on the new file).
    private func settle(_ open: Open, at followed: Followed, into index: HistoryIndex, now: ContinuousClock.Instant) -> Open? {
        var open = open
        let (file, end) = (open.file, open.end)
        let moved = Syscall.stat(followed.path).map { FileIdentity($0) != open.identity } ?? true
        if moved {
            // What is pending is complete now: the file was read to its end.
            open.stream.finish { keep(&$0, file: file, end: end, index) }
            return nil
        }
        let idle = Duration.milliseconds(config.parser(forSource: followed.source).idleTimeoutMs)
        if open.stream.hasPendingEntry && open.lastData.duration(to: now) >= idle {
            open.stream.flushPendingEntry { keep(&$0, file: file, end: end, index) }
        }
        return open
    }

    /// Opens the file now at the path when its first line is complete, as a new file of the index, and reads it.
    /// A gzip file at the path is not followed (it is not written line by line).
    private func start(_ followed: Followed, into index: HistoryIndex, now: ContinuousClock.Instant) {
        guard let (fd, info) = try? FileOpener.openRegularFile(followed.path) else { return }
        guard !FileOpener.startsWithGzipMagic(fd), let (fingerprint, _) = Fingerprinter.ofDescriptor(fd, complete: false) else {
            Syscall.close(fd)
            return
        }
        let source = SourceFile(path: followed.path, fingerprint: fingerprint, source: followed.source)
        let file = index.appendFile(source)
        followed.open = Open(file: file, reader: PlainFileReader(fd: fd, path: followed.path), stream: pipeline.makeStream(for: source),
                             identity: FileIdentity(info), end: 0, lastData: now)
        readOn(followed, into: index, now: now)
    }

    /// An entry of a followed file: a row when the filters keep it.
    private func keep(_ entry: inout SpyEntry, file: Int, end: Int64, _ index: HistoryIndex) {
        guard pipeline.admit(&entry) && pipeline.keeps(entry) else { return }
        index.append(file: file, offset: entry.offset, time: entry.time, category: entry.category, tags: entry.tags, end: end)
    }
}
