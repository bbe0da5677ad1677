import Glibc
import SpytailCore

/// Start-up, restart and truncation: finding content by its fingerprint in a rotated chain.
extension Tailer {
    /// Watches, resumes every checkpointed file (also those rotated and compressed meanwhile), then follows
    /// every live file not seen before (from `startAt`).
    func startUp() throws(SinkError) {
        let (checkpoints, problem) = checkpointer.load()
        if let problem { report(.checkpointsUnusable(problem)) }
        try rewatch()
        watcher?.watch(Directory.parent(of: configFile.path))
        guard state != .disabled else {
            parked = Dictionary(checkpoints.map { ($0.path, $0) }, uniquingKeysWith: { $0.offset < $1.offset ? $0 : $1 })
            return
        }
        for (path, group) in Dictionary(grouping: checkpoints, by: \.path).sorted(by: { $0.key < $1.key }) {
            try resume(path, from: group)
        }
        for source in config.sources {
            for path in discovery.liveFiles(for: source) where byPath[path] == nil {
                guard Syscall.stat(path) != nil else { continue }
                let known = checkpoints.contains { $0.path == path }
                if source.startAt == .end && !known {
                    try followAtEnd(path)
                } else {
                    if !known && source.rotated { try readHistory(of: path, source: source) }
                    try reconcilePath(path)
                }
            }
        }
        // Once more per folder: names that match but cannot be read (a directory, a symlink loop) are
        // reported now rather than silently skipped.
        for directory in watched.sorted() { try reconcileDirectory(directory) }
        try commit(durable: true)
    }

    /// A live file never seen before, on the first start with `startAt: beginning`: its rotated chain is
    /// read oldest first (damage reported as in `scan`) before the live file is followed. Nothing of it is
    /// checkpointed; the live file's checkpoint then marks the whole chain as read, so a restart skips it.
    func readHistory(of path: String, source: SpytailConfig.Source) throws(SinkError) {
        for member in discovery.rotatedChain(of: path, source: source) {
            do { _ = try FileOpener.open(member) } catch {
                events.report(.readFailed(error))
                continue
            }
            guard let fingerprint = Self.fingerprint(of: member) else { continue }  // empty
            events.report(.fileStarted(path: member, compressed: member.hasSuffix(".gz")))
            try catchUp(member, from: 0, fingerprint: fingerprint, as: path)
        }
    }

    /// The source `path` is a live file of; a source with the built-in names only when none is (any more).
    func source(of path: String) -> SpytailConfig.Source {
        config.sources.first { discovery.isLiveFile(path, of: $0) } ?? SpytailConfig.Source(name: "", include: [])
    }

    /// Follows `path` from its end (aligned to the start of the line being written, so no half line).
    func followAtEnd(_ path: String) throws(SinkError) {
        let fd: Int32
        do {
            fd = try Syscall.open(path, O_RDONLY)
        } catch {
            return warnOnce(path, "cannot open: \(error)")
        }
        unreadable.remove(path)
        defer { Syscall.close(fd) }
        guard let info = try? Syscall.fstat(fd) else { return }
        let size = Int64(info.st_size)
        var head = [UInt8](repeating: 0, count: Fingerprint.headLimit)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Fingerprint.headLimit, 0) }
        guard n > 0, let fingerprint = head.withUnsafeBufferPointer({ Fingerprint.of(head: UnsafeBufferPointer(rebasing: $0[..<n]), complete: false) })
        else {
            try follow(path, from: 0, fingerprint: nil)
            return
        }
        var tail = [UInt8](repeating: 0, count: 65536)
        let start = max(0, size - Int64(tail.count))
        let m = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        let lastNewline = m > 0 ? tail[..<m].lastIndex(of: 0x0A) : nil
        let offset = lastNewline.map { start + Int64($0) + 1 } ?? size
        let end = max(offset, Int64(Fingerprint.coveredLength(head: head.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[..<n]) })))
        // Rotated between this look and the open: the file now at the path is new, all of it.
        if try !follow(path, from: end, fingerprint: fingerprint) { try follow(path, from: 0, fingerprint: nil) }
    }

    /// Resumes the content saved in `checkpoints` (all saved under the live `path`): finds each by its
    /// fingerprint in the path's rotated chain, reads it from its offset, reads every newer member whole,
    /// and follows the live file.
    func resume(_ path: String, from checkpoints: [Checkpoint]) throws(SinkError) {
        // A rotation that runs between looking at a name and opening it moves the content: look again.
        var delivered = Set<Fingerprint>()  // contents read to their end by an earlier attempt: not again
        for _ in 0..<3 where try resumeOnce(path, from: checkpoints, delivered: &delivered) { return }
        report(.chainKeptChanging(path: path))
        try follow(path, from: 0, fingerprint: nil)
    }

    /// One attempt; false when a name looked at no longer held its content when opened (nothing was emitted from it).
    private func resumeOnce(_ path: String, from checkpoints: [Checkpoint], delivered: inout Set<Fingerprint>) throws(SinkError) -> Bool {
        let chain = discovery.rotatedCopies(of: path, source: source(of: path)) + (Syscall.stat(path) != nil ? [path] : [])
        var fingerprints: [Fingerprint?] = chain.map { _ in nil }
        var start: Int?
        var offsets: [Fingerprint: Int64] = [:]
        for checkpoint in checkpoints { offsets[checkpoint.fingerprint] = checkpoint.offset }
        for index in chain.indices.reversed() {
            fingerprints[index] = Self.fingerprint(of: chain[index])
            remember(fingerprints[index], under: path)
            if let fp = fingerprints[index], offsets[fp] != nil { start = index }
        }
        // A drained file was read to its end when it went quiet: gone now, nothing of it was lost.
        for checkpoint in checkpoints where !fingerprints.contains(checkpoint.fingerprint) && !checkpoint.drained {
            let file = SourceFile(path: path, fingerprint: checkpoint.fingerprint)
            try reportGap(GapReport(file: file, offset: checkpoint.offset, bytes: nil, reason: .vanished))
        }
        guard let start else {
            if Syscall.stat(path) != nil { try follow(path, from: 0, fingerprint: nil) }
            return true
        }
        for index in start..<chain.count {
            // Both forms of one rotation may exist (compression under way): read each content once.
            if let fp = fingerprints[index], chain[index] != path, delivered.contains(fp) { continue }
            let offset = fingerprints[index].flatMap { offsets[$0] } ?? 0
            if chain[index] == path {
                // Same first line, but rewritten in place since (the bytes before the offset differ): the
                // saved position means nothing there any more; read it whole and say so.
                if offset > 0, let checkpoint = checkpoints.first(where: { $0.fingerprint == fingerprints[index] }),
                   !Self.tailMatches(path, checkpoint) {
                    report(.rewrittenInPlace(path: path, offset: offset))
                    try follow(path, from: 0, fingerprint: nil)
                    continue
                }
                guard try follow(path, from: offset, fingerprint: fingerprints[index]) else { return false }
            } else if let fp = fingerprints[index], offsets[fp] != nil, FileOpener.isPlain(chain[index]) {
                // A rotated copy we were draining (or had retired): its writer may still be appending.
                guard try drain(chain[index], from: offset, fingerprint: fp, as: path) else { return false }
                delivered.insert(fp)
            } else {
                guard try catchUp(chain[index], from: offset, fingerprint: fingerprints[index], as: path) != nil else { return false }
                if let fp = fingerprints[index] { delivered.insert(fp) }
            }
        }
        if chain.last != path { try reconcilePath(path) }
        return true
    }

    /// Reads a whole rotated member (plain or gzip) from `offset` through a stream of its own. Its records
    /// carry the live path the lines were written under, as they would have when read live, so a line
    /// exported twice across a crash is exported as the same record.
    /// Returns the bytes delivered, or nil when `member` no longer holds the content `fingerprint` names (it
    /// was rotated between the look and the open): then nothing of it was emitted.
    @discardableResult
    func catchUp(_ member: String, from offset: Int64, fingerprint: Fingerprint?, as livePath: String,
                 into existing: TailedFile? = nil) throws(SinkError) -> Int64? {
        guard let fingerprint, let source = try? FileOpener.open(member) else { return 0 }
        let file = SourceFile(path: livePath, fingerprint: fingerprint)
        var stream = EntryStream(file: file, maxLineBytes: config.parse.maxLineBytes, continuation: pipeline.continuation,
                                 startOffset: offset)
        var position: Int64 = 0, delivered: Int64 = 0, damagedAt: Int64?
        var first = true
        while true {
            let n: Int
            do {
                if first {
                    first = false
                    let head = try source.readHead(into: buffer)
                    let bytes = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: head.count)
                    if Fingerprint.of(head: bytes, complete: true) != fingerprint { return nil }
                    n = head.count
                } else {
                    n = try source.read(into: buffer)
                }
            } catch {
                events.report(.readFailed(error))
                damagedAt = max(position, offset)
                break
            }
            if n == 0 { break }
            let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            let skip = Int(max(0, min(Int64(n), offset - position)))
            position += Int64(n)
            guard skip < n else { continue }
            delivered += Int64(n - skip)
            let rest = UnsafeBufferPointer(rebasing: chunk[skip...])
            if let existing { try existing.push(rest, emit) } else { try stream.push(rest, emit) }
            try waitWhileStalled()
        }
        if existing == nil { try stream.finish(emit) }
        if delivered > 0 { events.report(.following(path: member, offset: offset)) }
        remember(fingerprint, under: livePath)
        if let damagedAt { try reportGap(GapReport(file: file, offset: damagedAt, bytes: nil, reason: .damaged)) }
        return delivered
    }

    /// A rotated member being caught up cannot pause and be come back to later (a gzip stream has no
    /// position to return to), so while an output is full the catch-up waits here, retrying every second:
    /// memory stays bounded by one read chunk. Events that arrive meanwhile are kept for the loop. A stop
    /// request abandons the catch-up: from then on this process saves no checkpoint, so everything after
    /// the last saved one is read again after the restart.
    func waitWhileStalled() throws(SinkError) {
        guard pipeline.isStalled else { return }
        while true {
            do {
                try pipeline.flush()
                break
            } catch where error.cause == .noSpace {
                stall(error)  // said once; the retry clock starts now
                while !stopRequested, let retry = condition.nextDeadline(settings: settings), case let left = retry - uptime, left > .zero {
                    if case .some(.some(let event)) = inbox.pop(timeout: left) { deferred += [event] + inbox.drain() }
                }
                if stopRequested {
                    condition.freezeCheckpoints()
                    report(.stoppedMidCatchUp)
                    throw error
                }
            }
        }
        endStall()
    }

    /// Whether SIGTERM or SIGINT is among the events put aside.
    var stopRequested: Bool {
        deferred.contains { if case .signal(let signal) = $0 { signal == SIGTERM || signal == SIGINT } else { false } }
    }

    /// The followed file got shorter (copytruncate) or its head changed: what we had not read yet is in the
    /// rotated copy if logrotate made one with this content; read it from there, or report the gap; then
    /// read the file from 0.
    func recoverTruncation(_ file: TailedFile) throws(SinkError) {
        events.report(.truncated(path: file.followPath))
        if let fingerprint = file.source?.fingerprint {
            let copy = discovery.rotatedCopies(of: file.followPath, source: source(of: file.followPath)).reversed().prefix(4).first { Self.fingerprint(of: $0) == fingerprint }
            if let copy {
                try catchUp(copy, from: file.offset, fingerprint: fingerprint, as: file.followPath, into: file)
                try reportGap(GapReport(file: file.source!, offset: file.offset, bytes: nil, reason: .copytruncate))
            } else {
                try reportGap(GapReport(file: file.source!, offset: file.offset, bytes: nil, reason: .truncated))
            }
        }
        try file.finish(emit)
        file.restartAtZero()
        try read(file)
    }

    /// Whether the bytes before the checkpoint's offset in the plain file at `path` still hash the same.
    static func tailMatches(_ path: String, _ checkpoint: Checkpoint) -> Bool {
        guard let fd = try? Syscall.open(path, O_RDONLY) else { return false }
        defer { Syscall.close(fd) }
        return TailedFile.tailHash(fd: fd, before: checkpoint.offset) == checkpoint.tailHash
    }

    /// The fingerprint of a file's decompressed head (nil: unreadable or empty).
    static func fingerprint(of path: String) -> Fingerprint? {
        guard let source = try? FileOpener.open(path) else { return nil }
        let head = UnsafeMutableRawBufferPointer.allocate(byteCount: Fingerprint.headLimit, alignment: 1)
        defer { head.deallocate() }
        let count = (try? source.readHead(into: head))?.count ?? 0
        return Fingerprint.of(head: UnsafeBufferPointer(start: head.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count),
                              complete: true)
    }
}
