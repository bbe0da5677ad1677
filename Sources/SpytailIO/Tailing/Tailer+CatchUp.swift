import Glibc
import SpytailCore

/// Reading a whole rotated member (plain or gzip) that is not followed: history, restart, copytruncate. It
/// cannot pause and come back later (a gzip stream has no position), so on a full output it waits in place.
extension Tailer {
    /// Reads a whole rotated member (plain or gzip) from `offset` through a stream of its own. Its records
    /// carry the live path the lines were written under, as they would have when read live, so a line
    /// exported twice across a crash is exported as the same record.
    /// Returns the bytes delivered, or nil when `member` no longer holds the content `fingerprint` names (it
    /// was rotated between the look and the open, or is gone): then nothing of it was emitted.
    @discardableResult
    func catchUp(_ member: String, from offset: Int64, fingerprint: Fingerprint?, as livePath: String,
                 into existing: TailedFile? = nil) throws(SinkError) -> Int64? {
        guard let fingerprint else { return 0 }
        guard let source = try? FileOpener.open(member) else { return nil }
        if existing == nil, let size = Syscall.stat(member).map({ Int64($0.st_size) }),
           takesBlockPath(source.isCompressed ? size * 4 : size - offset) {
            return try catchUpThroughBlocks(member, source, from: offset, fingerprint: fingerprint, as: livePath)
        }
        let file = SourceFile(path: livePath, fingerprint: fingerprint)
        var stream = EntryStream(file: file, maxLineBytes: configuration.maxLineBytes, continuation: pipeline.continuation,
                                 startOffset: offset)
        var position: Int64 = 0, delivered: Int64 = 0, damagedAt: Int64?
        var first = true
        while true {
            let n: Int
            do {
                if first {
                    first = false
                    let head = try Fingerprinter.head(of: source, into: buffer)
                    if head.count > 0 && head.fingerprint != fingerprint { return nil }
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
        seen.remember(fingerprint, under: livePath)
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
            } catch where error.cause.pausesReading {
                stall(error)  // said once; the retry clock starts now
                while !stopRequested, let retry = condition.nextDeadline(settings: settings), case let left = retry - uptime, left > .zero {
                    if case .some(.some(let event)) = inbox.pop(timeout: left) {
                        deferred += [event] + inbox.drain()
                        if deferred.contains(where: \.isAcknowledgement) { break }  // room again: retry now
                    }
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
            let copies = discovery.rotatedCopies(of: file.followPath, source: source(of: file.followPath)).reversed().prefix(4)
                .filter { Fingerprinter.ofFile($0) == fingerprint }
            if !copies.isEmpty {
                // While logrotate's `compress` runs, the copy is there twice: `app.log.1`, whole, and `app.log.1.gz`,
                // still being written (a gzip stream that ends early reads as damaged). The plain one goes first;
                // if the compressor removed it meanwhile, the gzip one is whole by then.
                let plain = copies.filter(FileOpener.isPlain)
                for copy in plain + copies.filter({ !plain.contains($0) }) {
                    if try catchUp(copy, from: file.offset, fingerprint: fingerprint, as: file.followPath, into: file) != nil { break }
                }
                try reportGap(GapReport(file: file.source!, offset: file.offset, bytes: nil, reason: .copytruncate))
            } else {
                try reportGap(GapReport(file: file.source!, offset: file.offset, bytes: nil, reason: .truncated))
            }
        }
        try file.finish(emit)
        seen.remember(file.source?.fingerprint, under: file.followPath)  // its copy may arrive again later (renamed)
        file.restartAtZero()
        try read(file)
    }
}
