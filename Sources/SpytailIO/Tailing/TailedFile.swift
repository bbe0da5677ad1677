import Glibc
import SpytailCore

/// One file `run` holds open: followed under its live path, or drained under its rotated name.
/// Reads from `offset` to the end of the file into an entry stream; until the first line is complete
/// (the fingerprint decided), bytes wait in `head`.
final class TailedFile {
    let identity: FileIdentity
    /// The live path this content was found at (checkpoints are kept under it).
    let followPath: String
    /// Where the file is now: `followPath` while followed, its rotated name while drained.
    var currentPath: String
    /// Followed, drained, retired …: the decisions about this file (the core's state machine).
    var lifecycle: FileLifecycle
    /// The folder watched only for this drained file (it was moved where nothing else is watched).
    var drainWatch: String?
    private(set) var fd: Int32
    /// Next byte to read.
    private(set) var offset: Int64
    private(set) var stream: EntryStream?
    private(set) var source: SourceFile?
    private var head: [UInt8] = []
    /// Room for the first line, to check after each read that the file still starts with it (empty: not known yet).
    private var headBytes: [UInt8] = []
    private var maxLineBytes: Int
    private var continuation: Regex?
    /// Its parser's container format (a runtime's log whose lines a joiner rebuilds).
    private var container: ContainerFormat?
    /// The config's source this file belongs to (`SourceFile.source`).
    private(set) var sourceIndex: Int
    /// Its parser's multiline idle timeout.
    private(set) var idleTimeout: Duration
    /// Where recording stopped (state idle): what is read from here on is reported as one gap when it resumes.
    var skippedFrom: Int64?
    /// The epoch of a content's record ids (`ContentMarks`), asked when the content is known.
    private let epoch: (Fingerprint) -> Int
    /// The hash of the bytes before a resume offset, taken from the chunk that held them as it was read: what a
    /// checkpoint saves of them (`tailHash`) is this content's bytes even when the file was truncated and
    /// refilled since (copytruncate) and the tailer has not looked yet.
    private var tail: (offset: Int64, hash: UInt64)?

    /// Opens `path` for reading from `offset` (with the content's fingerprint when already known).
    init(path: String, followPath: String, offset: Int64, fingerprint: Fingerprint?, source: Int = SourceFile.unnamed,
         parser: LineParser, now: Duration, epoch: @escaping (Fingerprint) -> Int = { _ in 0 }) throws(ReadError) {
        let (fd, info) = try FileOpener.openRegularFile(path)
        self.fd = fd
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        self.followPath = followPath
        currentPath = path
        self.offset = offset
        maxLineBytes = parser.maxLineBytes
        continuation = parser.continuation
        container = parser.container
        sourceIndex = source
        idleTimeout = .milliseconds(parser.idleTimeoutMs)
        lifecycle = FileLifecycle(.following, now: now)
        self.epoch = epoch
        do throws(Errno) { try Syscall.seek(fd, to: offset) } catch {
            close()
            throw ReadError(path: path, cause: .read(error))
        }
        if let fingerprint {
            start(sourceFile(fingerprint), at: offset)
            // Resumed: the bytes before the offset are hashed now, while the file surely holds them.
            if offset > 0 { tail = verifiedTailHash(before: offset).map { (offset, $0) } }
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Syscall.close(fd) }
        fd = -1
    }

    var isOpen: Bool { fd >= 0 }
    var descriptor: Int32 { fd }

    /// Where a restart should resume (0 while the fingerprint is undecided: nothing was delivered).
    var resumeOffset: Int64 { stream?.resumeOffset ?? 0 }
    var hasPendingEntry: Bool { stream?.hasPendingEntry ?? false }

    /// What fstat and stat show now.
    func observe() -> FileObservation? {
        guard let info = try? Syscall.fstat(fd) else { return nil }
        let atPath = Syscall.stat(followPath).map { FileIdentity(device: UInt64($0.st_dev), inode: UInt64($0.st_ino)) }
        return FileObservation(size: Int64(info.st_size), links: Int(info.st_nlink), pathIdentity: atPath, headMatches: headMatches())
    }

    /// Whether the file still starts with the line it was fingerprinted by (pread: the position stays).
    func headMatches() -> Bool {
        guard let source else { return true }
        return Fingerprinter.ofDescriptor(fd, complete: true)?.fingerprint == source.fingerprint
    }

    /// How a read to the end came out.
    struct ReadResult {
        /// Bytes read and handed to the entry stream.
        var bytes: Int64
        /// The file no longer starts with its first line (truncated, perhaps refilled past our offset) when a
        /// chunk had been read: that chunk was not used, since it may be the new content's. Recover the rest
        /// of the old content from its copy (`Tailer.recoverTruncation`).
        var headChanged: Bool
    }

    /// Reads to the end of the file, or until `keepGoing` says stop (a full output); entries go to
    /// `emit`.
    ///
    /// A look said the file grew, but a rotator may truncate it between that look and a read (copytruncate),
    /// and a busy writer refill it past our offset: a read there returns the new content's bytes as if they
    /// continued the old. So each chunk is used only if the file still starts with the line it was
    /// fingerprinted by *after* the chunk was read (one small pread): then no truncation came before the read.
    func readToEnd(buffer: UnsafeMutableRawBufferPointer, now: Duration, keepGoing: () -> Bool = { true },
                   _ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) -> ReadResult {
        var result = ReadResult(bytes: 0, headChanged: false)
        while keepGoing() {
            guard let n = try? Syscall.read(fd, buffer), n > 0 else { break }
            if source != nil && !headStillMatches() {
                try? Syscall.seek(fd, to: offset)  // the chunk is not ours to use
                result.headChanged = true
                break
            }
            result.bytes += Int64(n)
            offset += Int64(n)
            let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            try consume(chunk, emit)
            noteTail(chunk)
        }
        lifecycle.read(result.bytes, at: now)
        return result
    }

    /// Whether the file still starts with the line it was fingerprinted by, read with one pread of that
    /// line's length into a reused buffer (this runs after every read of a followed file).
    private func headStillMatches() -> Bool {
        guard let source else { return true }
        if headBytes.isEmpty {
            // Opened with a known fingerprint (a resume): learn the first line's length once.
            guard let (fingerprint, covered) = Fingerprinter.ofDescriptor(fd, complete: true), fingerprint == source.fingerprint else {
                return false
            }
            headBytes = [UInt8](repeating: 0, count: covered)
        }
        let n = (try? headBytes.withUnsafeMutableBytes { (raw) throws(Errno) in try Syscall.pread(fd, raw, at: 0) }) ?? 0
        guard n == headBytes.count else { return false }
        return headBytes.withUnsafeBufferPointer { Fingerprint.of(head: $0, complete: true) } == source.fingerprint
    }

    /// The file is rotated away for good, deleted, or closed: hands out a held partial line and the pending
    /// entry (their end will never come through this descriptor).
    func finish(_ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) {
        if stream == nil, !head.isEmpty {
            let bytes = head
            head = []
            bytes.withUnsafeBufferPointer { decideFingerprint($0, complete: true) }
            if var stream {
                try bytes.withUnsafeBufferPointer { (b) throws(SinkError) in try stream.push(b, emit) }
                self.stream = stream
            }
        }
        try stream?.finish(emit)
    }

    /// Feeds bytes of this content read elsewhere (its rotated copy, after a copytruncate) into the stream.
    func push(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) {
        try consume(bytes, emit)
    }

    /// The multiline idle timeout: hands out the pending entry.
    func flushPendingEntry(_ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) {
        try stream?.flushPendingEntry(emit)
    }

    /// A reload: the file now belongs to source `index`, read by `parser`. When either differs from what the
    /// stream was built with (sources reordered or renamed, a changed multiline rule or line limit), the
    /// pending entry goes out as it was assembled and the stream starts again at the first line not yet handed
    /// out (a partial last line is read again), so the new rules apply from the next line. Returns whether it did.
    @discardableResult
    func rebind(source index: Int, parser: LineParser, _ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) -> Bool {
        let timeout = Duration.milliseconds(parser.idleTimeoutMs)
        guard index != sourceIndex || parser.maxLineBytes != maxLineBytes || parser.continuation?.pattern != continuation?.pattern
                || timeout != idleTimeout || parser.container != container else { return false }
        (sourceIndex, maxLineBytes, continuation, idleTimeout) = (index, parser.maxLineBytes, parser.continuation, timeout)
        container = parser.container
        guard let fingerprint = source?.fingerprint, stream != nil else { return true }  // undecided: the new values apply when it is
        try stream!.flushPendingEntry(emit)
        let resume = stream!.resumeOffset
        try? Syscall.seek(fd, to: resume)  // a regular file open for reading
        offset = resume
        start(sourceFile(fingerprint), at: resume)
        return true
    }

    /// Skips to `newOffset` of the content `fingerprint` names (its bytes before were read elsewhere: a backlog
    /// read through the block path). Only right after opening, before anything was read here.
    func advance(to newOffset: Int64, fingerprint: Fingerprint) {
        try? Syscall.seek(fd, to: newOffset)  // a regular file open for reading
        offset = newOffset
        head = []
        tail = nil
        start(sourceFile(fingerprint), at: newOffset)
    }

    /// After a truncation: starts over at 0 with whatever content is there now.
    func restartAtZero() {
        offset = 0
        try? Syscall.seek(fd, to: 0)  // a regular file open for reading: seeking to 0 cannot fail
        stream = nil
        source = nil
        head = []
        tail = nil
    }

    /// The checkpoint for this file, if anything of it was identified.
    func checkpoint() -> Checkpoint? {
        guard let source else { return undecidedCheckpoint() }
        let resume = resumeOffset
        return Checkpoint(path: followPath, identity: identity, fingerprint: source.fingerprint, offset: resume,
                          tailHash: tailHash(before: resume))
    }

    /// A file opened before its first line was finished and not read since (its events still queued behind a busy
    /// loop when the run stops, say) may hold lines by now: the content its first line on the disk names, at 0
    /// (nothing of it went out). Without it, a restart took that content for read once a newer one of its chain
    /// was saved, and its lines were lost (the run counts such an open file as seeing that content). Nil while
    /// there is no finished first line.
    private func undecidedCheckpoint() -> Checkpoint? {
        guard isOpen, let (fingerprint, _) = Fingerprinter.ofDescriptor(fd, complete: false) else { return nil }
        return Checkpoint(path: followPath, identity: identity, fingerprint: fingerprint, offset: 0, tailHash: Self.tailHash(fd: fd, before: 0))
    }

    /// The hash of the bytes before `resume`: as they were read, or else (the offset moved without a read: a
    /// pending entry handed out, a backlog read elsewhere) read again with pread. `Checkpoint.unknownTail` when
    /// the file no longer holds them (truncated since, perhaps refilled: those bytes are not this content's).
    private func tailHash(before resume: Int64) -> UInt64 {
        if let tail, tail.offset == resume { return tail.hash }
        guard let hash = verifiedTailHash(before: resume) else { return Checkpoint.unknownTail }
        tail = (resume, hash)
        return hash
    }

    /// The hash of the bytes before `resume` read with pread, when the file still holds that much and, after the
    /// read, still starts with its first line.
    private func verifiedTailHash(before resume: Int64) -> UInt64? {
        guard let info = try? Syscall.fstat(fd), Int64(info.st_size) >= resume else { return nil }
        let hash = Self.tailHash(fd: fd, before: resume)
        return headStillMatches() ? hash : nil
    }

    /// Keeps the hash of the bytes before the resume offset when `chunk`, the bytes just read up to `offset`, holds them.
    private func noteTail(_ chunk: UnsafeBufferPointer<UInt8>) {
        let resume = resumeOffset, start = offset - Int64(chunk.count)
        let length = min(Int64(Checkpoint.tailLength), resume)
        guard tail?.offset != resume, resume - length >= start, resume <= offset else { return }
        let from = Int(resume - length - start)
        tail = (resume, Fingerprint.fnv1a(UnsafeBufferPointer(rebasing: chunk[from..<(from + Int(length))])))
    }

    /// FNV-1a of the bytes just before `offset` (read with pread: the read position stays).
    static func tailHash(fd: Int32, before offset: Int64) -> UInt64 {
        let length = Int(min(Int64(Checkpoint.tailLength), offset))
        guard length > 0 else { return Fingerprint.fnv1a(UnsafeBufferPointer(start: nil, count: 0)) }
        var bytes = [UInt8](repeating: 0, count: length)
        let n = (try? bytes.withUnsafeMutableBytes { (raw) throws(Errno) in try Syscall.pread(fd, raw, at: offset - Int64(length)) }) ?? 0
        return bytes.withUnsafeBufferPointer { Fingerprint.fnv1a(UnsafeBufferPointer(rebasing: $0[..<max(0, n)])) }
    }

    private func consume(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (inout SpyEntry) throws(SinkError) -> Void) throws(SinkError) {
        if stream == nil {
            head.append(contentsOf: chunk)
            let bytes = head
            bytes.withUnsafeBufferPointer { decideFingerprint($0, complete: false) }
            guard stream != nil else { return }
            head = []
            try bytes.withUnsafeBufferPointer { (b) throws(SinkError) in try stream!.push(b, emit) }
            return
        }
        try stream!.push(chunk, emit)
    }

    /// Head bytes are read from offset 0 (a file is only started undecided from its beginning).
    private func decideFingerprint(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool) {
        guard let fingerprint = Fingerprint.of(head: bytes, complete: complete) else { return }
        start(sourceFile(fingerprint), at: 0)
    }

    /// The identity this file's entries carry once its content is `fingerprint`.
    private func sourceFile(_ fingerprint: Fingerprint) -> SourceFile {
        SourceFile(path: followPath, fingerprint: fingerprint, source: sourceIndex, epoch: epoch(fingerprint))
    }

    private func start(_ file: SourceFile, at offset: Int64) {
        source = file
        headBytes = []
        stream = EntryStream(file: file, maxLineBytes: maxLineBytes, continuation: continuation, container: container, startOffset: offset)
    }
}
