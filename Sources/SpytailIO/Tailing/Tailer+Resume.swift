import Glibc
import SpytailCore

/// Finding checkpointed content again by its fingerprint in the rotated chain (live folder and olddir), after a
/// restart, when enabled again, or when a parked file gets an event.
extension Tailer {
    /// Resumes the content saved in `checkpoints` (all saved under the live `path`): finds each by its
    /// fingerprint in the path's rotated chain, reads it from its offset, reads every newer member whole,
    /// and follows the live file.
    func resume(_ path: String, from checkpoints: [Checkpoint]) throws(SinkError) {
        // A rotation that runs between looking at a name and opening it moves the content: look again, for
        // as long as each look reads more of the chain (a slow reader behind a fast rotator catches up
        // member by member); only three looks in a row that read nothing give up.
        var progress = ResumeProgress()
        var fruitless = 0
        while fruitless < 3 {
            let before = progress.delivered.count
            if try resumeOnce(path, from: checkpoints, progress: &progress) { return }
            fruitless = progress.delivered.count > before ? 0 : fruitless + 1
        }
        report(.chainKeptChanging(path: path))
        try follow(path, from: 0, fingerprint: nil)
    }

    /// What earlier looks at a chain did: contents read to their end (not again), vanished ones said.
    struct ResumeProgress {
        var delivered = Set<Fingerprint>()
        var vanishedSaid = Set<Fingerprint>()
    }

    /// One attempt; false when a name looked at no longer held its content when opened (nothing was emitted from it).
    private func resumeOnce(_ path: String, from checkpoints: [Checkpoint], progress: inout ResumeProgress) throws(SinkError) -> Bool {
        let chain = discovery.rotatedCopies(of: path, source: source(of: path)) + (Syscall.stat(path) != nil ? [path] : [])
        var fingerprints: [Fingerprint?] = chain.map { _ in nil }
        var start: Int?
        var offsets: [Fingerprint: Int64] = [:]
        for checkpoint in checkpoints { offsets[checkpoint.fingerprint] = checkpoint.offset }
        for index in chain.indices.reversed() {
            fingerprints[index] = Fingerprinter.ofFile(chain[index])
            seen.remember(fingerprints[index], under: path)
            // Where reading starts: the oldest member holding a checkpoint or read by an earlier look (if
            // retention removed the checkpointed one meanwhile, the members after what was read still follow).
            if let fp = fingerprints[index], offsets[fp] != nil || progress.delivered.contains(fp) { start = index }
        }
        // A drained file was read to its end when it went quiet: gone now, nothing of it was lost.
        for checkpoint in checkpoints where !fingerprints.contains(checkpoint.fingerprint) && !checkpoint.drained
            && !progress.delivered.contains(checkpoint.fingerprint) {
            guard progress.vanishedSaid.insert(checkpoint.fingerprint).inserted else { continue }
            let file = SourceFile(path: path, fingerprint: checkpoint.fingerprint)
            try reportGap(GapReport(file: file, offset: checkpoint.offset, bytes: nil, reason: .vanished))
        }
        guard let start else {
            if Syscall.stat(path) != nil { try follow(path, from: 0, fingerprint: nil) }
            return true
        }
        for index in start..<chain.count {
            // Both forms of one rotation may exist (compression under way): read each content once.
            if let fp = fingerprints[index], chain[index] != path, progress.delivered.contains(fp) { continue }
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
                progress.delivered.insert(fp)
            } else {
                guard try catchUp(chain[index], from: offset, fingerprint: fingerprints[index], as: path) != nil else { return false }
                if let fp = fingerprints[index] { progress.delivered.insert(fp) }
            }
        }
        if chain.last != path { try reconcilePath(path) }
        return true
    }

    /// Whether the bytes before the checkpoint's offset in the plain file at `path` still hash the same.
    static func tailMatches(_ path: String, _ checkpoint: Checkpoint) -> Bool {
        guard let fd = try? Syscall.open(path, O_RDONLY) else { return false }
        defer { Syscall.close(fd) }
        return TailedFile.tailHash(fd: fd, before: checkpoint.offset) == checkpoint.tailHash
    }
}
