import Glibc
import SpytailCore

/// A backlog (the history at a first start, a rotated member after a restart, a live file's unread bytes)
/// goes through the block-parallel path `scan` uses: the same blocks, workers and in-order writes, so `run`
/// catches up as fast as `scan` reads and writes the same bytes. Followed files go on line by line.
extension Tailer {
    /// Whether a backlog of `bytes` takes the block path (only while recording and every output takes bytes).
    func takesBlockPath(_ bytes: Int64) -> Bool {
        state == .recording && !condition.isStalled && !pipeline.isStalled && bytes >= settings.backlogBytes
    }

    /// Reads `source` from `offset` through the block path; records carry `file` (the live path's content).
    func readBacklog(_ source: any ByteSource, as file: SourceFile, from offset: Int64, startingAt position: Int64 = 0,
                     holdingLastEntry: Bool) throws(SinkError) -> ScanRunner.Backlog {
        try pipeline.flush()  // what came before goes out first
        let outputs = configuration.outputs.map { output in
            OpenOutput(formatter: output.formatter,
                       writer: PatientWriter(output.writer, waitForSpace: { (error) throws(SinkError) in try self.waitForRoom(error) },
                                             spaceAgain: { self.endStall() }))
        }
        let runner = ScanRunner(config: configFile.compiled, outputs: outputs, events: events, recentCapacity: backlogTapCapacity)
        defer { runner.close() }
        if let telemetry {
            runner.onBlockWritten = { batch, dropped in
                telemetry.recent.append(batch, dropped: dropped)
                telemetry.beat()  // a long backlog is the loop at work: `/healthz` stays green
            }
        }
        let backlog: ScanRunner.Backlog
        do {
            backlog = try runner.readBacklog(source, as: file, from: offset, startingAt: position, holdingLastEntry: holdingLastEntry)
        } catch {
            runner.close()  // its workers may still hold blocks: their counts are read once they have stopped
            countBacklog(runner.statistics)
            throw error
        }
        countBacklog(runner.statistics)
        countRead(file.path, bytes: backlog.bytesRead, lines: backlog.lines)
        if let failure = backlog.failure {
            events.report(.readFailed(failure))
            events.report(.gap(path: file.path, bytes: nil, reason: GapReport.Reason.damaged.rawValue))
        }
        return backlog
    }

    /// A rotated member read whole from `offset` through the block path, its content checked first; nil when
    /// the member holds other content now (rotated in between).
    func catchUpThroughBlocks(_ member: String, _ source: any ByteSource, from offset: Int64, fingerprint: Fingerprint,
                              as livePath: String) throws(SinkError) -> Int64? {
        guard let head = try? Fingerprinter.head(of: source, into: buffer) else { return 0 }
        if head.count > 0 && head.fingerprint != fingerprint { return nil }
        let replayed = PrefixedSource(prefix: UnsafeRawBufferPointer(rebasing: buffer[..<head.count]), rest: source)
        let backlog = try readBacklog(replayed, as: sourceFile(livePath, fingerprint: fingerprint), from: offset,
                                      holdingLastEntry: false)
        if backlog.bytesRead > 0 { events.report(.following(path: member, offset: offset)) }
        seen.read(fingerprint, under: livePath, to: offset + backlog.bytesRead)
        return backlog.bytesRead
    }

    /// A followed file just opened at `offset` with a large backlog: everything but its last entry goes through
    /// the block path (read through a second open of the same file, so the content cannot change under it),
    /// then the file is followed line by line from that entry.
    func readFollowedBacklog(_ file: TailedFile, from offset: Int64) throws(SinkError) {
        guard let info = try? Syscall.fstat(file.descriptor), takesBlockPath(Int64(info.st_size) - offset),
              let fingerprint = file.source?.fingerprint ?? Fingerprinter.ofDescriptor(file.descriptor, complete: true)?.fingerprint,
              let fd = try? Syscall.open("/proc/self/fd/\(file.descriptor)", O_RDONLY)
        else { return }
        guard (try? Syscall.seek(fd, to: offset)) != nil else { return Syscall.close(fd) }
        let source = PlainFileReader(fd: fd, path: file.currentPath)
        let backlog = try readBacklog(source, as: sourceFile(file.followPath, fingerprint: fingerprint), from: offset,
                                      startingAt: offset, holdingLastEntry: true)
        file.advance(to: backlog.resumeOffset, fingerprint: fingerprint)
    }
}
