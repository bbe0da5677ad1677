import Glibc
import SpytailCore

/// Reading a whole rotated member (plain or gzip) that is not followed: history, restart, copytruncate. It
/// cannot pause and come back later (a gzip stream has no position), so on a full output it waits in place.
extension Tailer {
    /// Reads a whole rotated member (plain or gzip) from `offset` through a stream of its own. Its records
    /// carry the live path the lines were written under, as they would have when read live, so a line
    /// exported twice across a crash is exported as the same record. Damage is reported as a `damaged` gap.
    /// Returns the bytes delivered, or nil when `member` no longer holds the content `fingerprint` names (it
    /// was rotated between the look and the open, or is gone): then nothing of it was emitted.
    /// `stillWritten`: the member is the chain's newest, which a writer that has not reopened its live path may
    /// still append to; read plain, it is read up to its last newline (a line it ends inside is left, for when it
    /// grows or is compressed: its writer may finish it).
    @discardableResult
    func catchUp(_ member: String, from offset: Int64, fingerprint: Fingerprint?, as livePath: String,
                 stillWritten: Bool = false) throws(SinkError) -> Int64? {
        guard let fingerprint else { return 0 }
        let source: any ByteSource
        do throws(ReadError) {
            if let errno = openFailure?() { throw ReadError(path: member, cause: .open(errno)) }
            source = try FileOpener.open(member)
        } catch {
            // No descriptor free: the copy is looked at again once one is (as at its arrival), not passed over.
            if error.wantsDescriptor { awaitDescriptor(for: member) }
            return nil
        }
        if stillWritten, let plain = source as? PlainFileReader { plain.endAtLastNewline(notBefore: offset) }
        if let size = Syscall.stat(member).map({ Int64($0.st_size) }), takesBlockPath(source.isCompressed ? size * 4 : size - offset) {
            return try catchUpThroughBlocks(member, source, from: offset, fingerprint: fingerprint, as: livePath)
        }
        let file = sourceFile(livePath, fingerprint: fingerprint)
        var stream = pipeline.makeStream(for: file, startOffset: offset)
        let read = try readCopy(source, from: offset, fingerprint: fingerprint) { (bytes) throws(SinkError) in try stream.push(bytes, emit) }
        switch read.outcome {
        case .vanished, .otherContent:
            return nil
        case .whole, .cutShort:
            try stream.finish(emit)
            if read.delivered > 0 { events.report(.following(path: member, offset: offset)) }
            seen.read(fingerprint, under: livePath, to: offset + read.delivered)
            if case .cutShort(let upTo) = read.outcome {
                if let error = read.error { events.report(.readFailed(error)) }
                try reportGap(GapReport(file: file, offset: upTo, bytes: nil, reason: .damaged))
            }
            return read.delivered
        }
    }

    /// Reads a rotated copy whole as `livePath` (`catchUp`). The newest copy of its chain, when plain, is then
    /// kept as a retired file at the end of what was read: its writer may not have reopened its live path yet,
    /// and if it grows it is drained from there; a gzip one is kept as the chain's read position until the live
    /// file has a checkpoint. Returns the bytes delivered, or nil when the copy no longer
    /// held the content `fingerprint` names.
    @discardableResult
    func readRotated(_ copy: String, from offset: Int64, fingerprint: Fingerprint?, as livePath: String, newest: Bool) throws(SinkError) -> Int64? {
        guard let delivered = try catchUp(copy, from: offset, fingerprint: fingerprint, as: livePath, stillWritten: newest) else { return nil }
        if newest, let fingerprint { keepAsNewest(copy, at: offset + delivered, fingerprint: fingerprint, as: livePath) }
        return delivered
    }

    /// The newest copy of a chain with content, read up to `end`: a plain one is kept as retired; a gzip one
    /// as the chain's position while the live file has no checkpoint.
    func keepAsNewest(_ copy: String, at end: Int64, fingerprint: Fingerprint, as livePath: String) {
        if FileOpener.isPlain(copy) {
            if keepRetired(copy, at: end, fingerprint: fingerprint, as: livePath) { return }
        } else if let info = Syscall.stat(copy) {
            // A gzip copy does not grow, but while the live file has no checkpoint (empty) this one says
            // the chain was read up to here.
            tracked.noteGone(Checkpoint(path: livePath, identity: FileIdentity(info), fingerprint: fingerprint,
                                             offset: end, tailHash: Checkpoint.unknownTail), limit: settings.retiredLimit)
            return
        }
        // Gone since it was read (gzipped or renamed while the read waited for an output): the line its writer was
        // in the middle of, and whatever it added, is in the copy that holds the content now, read on from `end`.
        seen.remember(fingerprint, under: livePath, readTo: end)
    }

    /// Keeps the plain copy at `path`, read up to `end`, as a retired file (bounded like the others). False when it
    /// is no longer there to keep.
    private func keepRetired(_ path: String, at end: Int64, fingerprint: Fingerprint, as livePath: String) -> Bool {
        guard let fd = try? Syscall.open(path, O_RDONLY) else { return false }
        defer { Syscall.close(fd) }
        guard let info = try? Syscall.fstat(fd), tracked[FileIdentity(info)] == nil else { return true }
        let checkpoint = Checkpoint(path: livePath, identity: FileIdentity(info), fingerprint: fingerprint, offset: end,
                                    tailHash: TailedFile.tailHash(fd: fd, before: end))
        if let watch = tracked.retire(checkpoint, at: path, watch: nil, stamp: FileStamp(info), limit: settings.retiredLimit)?.watch {
            watches.release(watch)
        }
        seen.remember(fingerprint, under: livePath, readTo: end)
        return true
    }

    /// What one read of a rotated copy came to.
    struct CopyRead {
        var outcome: CopyRecovery.ReadOutcome
        /// Bytes handed on (past the offset asked for).
        var delivered: Int64 = 0
        /// Why it ended short, when it did.
        var error: ReadError?
    }

    /// Reads `source` (a rotated copy, plain or gzip, just opened) from decompressed `offset` to its end into
    /// `push`, after checking that it starts with the content `fingerprint` names.
    func readCopy(_ source: any ByteSource, from offset: Int64, fingerprint: Fingerprint,
                  into push: (UnsafeBufferPointer<UInt8>) throws(SinkError) -> Void) throws(SinkError) -> CopyRead {
        var position: Int64 = 0, delivered: Int64 = 0
        var first = true
        while true {
            let n: Int
            do {
                if first {
                    first = false
                    let head = try Fingerprinter.head(of: source, into: buffer)
                    if head.count > 0 && head.fingerprint != fingerprint { return CopyRead(outcome: .otherContent) }
                    n = head.count
                } else {
                    n = try source.read(into: buffer)
                }
            } catch {
                return CopyRead(outcome: .cutShort(upTo: max(position, offset)), delivered: delivered, error: error)
            }
            if n == 0 { break }
            let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            let skip = Int(max(0, min(Int64(n), offset - position)))
            position += Int64(n)
            guard skip < n else { continue }
            delivered += Int64(n - skip)
            try push(UnsafeBufferPointer(rebasing: chunk[skip...]))
            try waitWhileStalled()
        }
        return CopyRead(outcome: .whole(upTo: max(position, offset)), delivered: delivered)
    }

    /// A rotated member being caught up cannot pause and be come back to later (a gzip stream has no
    /// position to return to), so while an output is full the catch-up waits here (`waitForRoom`): memory
    /// stays bounded by one read chunk.
    func waitWhileStalled() throws(SinkError) {
        guard pipeline.isStalled else { return }
        while true {
            do {
                try pipeline.flush()
                break
            } catch where error.cause.pausesReading {
                try waitForRoom(error)
            }
        }
        endStall()
    }

    /// The one wait inside a catch-up or a backlog while an output is full (they cannot return to the loop
    /// and come back): the stall is said once, and the wait lasts until the retry is due, or a network output
    /// acknowledged records (room again). Events that arrive meanwhile are kept for the loop; the heartbeat
    /// goes on (`/healthz` stays green). A stop request abandons the catch-up: from then on this process saves
    /// no checkpoint, so everything after the last saved one is read again after the restart.
    func waitForRoom(_ error: SinkError) throws(SinkError) {
        stall(error)
        while !stopRequested, let retry = condition.nextDeadline(settings: settings), case let left = retry - uptime, left > .zero {
            telemetry?.beat()
            if let event = awaitEvent(upTo: min(left, TelemetryPublisher.heartbeat)) {
                deferred += [event] + inbox.drain()
                if deferred.contains(where: \.isAcknowledgement) { break }
            }
        }
        if stopRequested {
            condition.freezeCheckpoints()
            report(.stoppedMidCatchUp)
            throw error
        }
    }

    /// Whether SIGTERM or SIGINT is among the events put aside.
    var stopRequested: Bool {
        deferred.contains { if case .signal(let signal) = $0 { signal == SIGTERM || signal == SIGINT } else { false } }
    }

    /// The followed file got shorter (copytruncate) or its head changed: what we had not read yet is in the
    /// rotated copy if logrotate made one with this content; read it from there (`CopyRecovery` decides where,
    /// while the rotator may still be compressing that copy), and report the possible loss as a gap; then
    /// read the file from 0.
    func recoverTruncation(_ file: TailedFile) throws(SinkError) {
        events.report(.truncated(path: file.followPath))
        if let source = file.source {
            var recovery = CopyRecovery(offset: file.offset, patience: settings.rotateWait)
            var lastError: ReadError?
            look: while true {
                let candidates = copyCandidates(of: file.followPath, fingerprint: source.fingerprint)
                onCopiesLooked?(file.followPath, candidates)
                switch recovery.next(candidates, now: uptime) {
                case .read(let path, let offset):
                    let read = try readCopy(path, from: offset, into: file, fingerprint: source.fingerprint)
                    if read.delivered > 0 { events.report(.following(path: path, offset: offset)) }
                    if read.error != nil { lastError = read.error }
                    recovery.readEnded(path, read.outcome)
                case .wait(let path):
                    waitForArrival(of: path, until: recovery.deadline ?? uptime)
                case .finish(let reasons):
                    if reasons.contains(.damaged), let lastError { events.report(.readFailed(lastError)) }
                    for reason in reasons { try reportGap(GapReport(file: source, offset: recovery.offset, bytes: nil, reason: reason)) }
                    break look
                }
            }
        }
        try file.finish(emit)
        seen.remember(file.source?.fingerprint, under: file.followPath)  // its copy may arrive again later (renamed)
        file.restartAtZero()
        try read(file)
    }

    /// Opens the copy `path` and reads it from `offset` into the followed file's stream.
    private func readCopy(_ path: String, from offset: Int64, into file: TailedFile, fingerprint: Fingerprint) throws(SinkError) -> CopyRead {
        guard let source = try? FileOpener.open(path) else { return CopyRead(outcome: .vanished) }
        return try readCopy(source, from: offset, fingerprint: fingerprint) { (bytes) throws(SinkError) in try file.push(bytes, emit) }
    }

    /// The newest rotated copies of `live` (both forms of a rotation being compressed), as one look shows them.
    func copyCandidates(of live: String, fingerprint: Fingerprint) -> [CopyRecovery.Candidate] {
        discovery.rotatedCopies(of: live, source: source(of: live)).reversed().prefix(4).map { path in
            guard let source = try? FileOpener.open(path) else { return .init(path: path, isGzip: false, content: .other) }
            let found = Fingerprinter.of(source)
            let content: CopyRecovery.Candidate.Content = found.map { $0 == fingerprint ? .same : .other } ?? .undecided
            // An empty file may be a gzip copy its compressor has just created: it counts as a gzip one to wait for.
            let isGzip = source.isCompressed || (found == nil && path.hasSuffix(".gz"))
            return .init(path: path, isGzip: isGzip, content: content)
        }
    }

    /// Waits, at most until `deadline`, for `path` to arrive (its compressor closed it after writing: it is
    /// whole now); the events taken meanwhile are kept for the loop. Without inotify no such news comes and
    /// the deadline ends the wait; an overflow (the news may be lost) or a stop request ends it at once.
    func waitForArrival(of path: String, until deadline: Duration) {
        let directory = Paths.parent(of: path), name = Paths.baseName(of: path)
        while !stopRequested, case let left = deadline - uptime, left > .zero {
            guard let event = awaitEvent(upTo: left) else { continue }
            deferred.append(event)
            switch event {
            case .watch(.changed(directory, name, .arrived)), .watch(.overflow): return
            default: continue
            }
        }
    }

    /// The wait of a step that waits (room in a full output, a copy's arrival): the next event within `left`;
    /// with a stepped clock, until an event comes or the clock moves, never real time. The simulator's
    /// `onWait` plays what the world does meanwhile.
    func awaitEvent(upTo left: Duration) -> RunEvent? {
        onWait?()
        if case .some(.some(let event)) = inbox.pop(timeout: waitsOnClock ? nil : left) { return event }
        return nil
    }
}
