import Foundation
import Glibc
import SpytailCore
@testable import SpytailIO

/// The invariant "checkpoints never ahead of the output", checked at each save as the run makes it: every
/// line that lies before a saved offset, in the file the checkpoint names (same inode, the same bytes before
/// the offset), is already in the output file. A save ahead of it would lose those lines to a kill right
/// after it; the end-of-run check only sees that when a kill happens to fall there.
///
/// Compressed files are not looked into (their offsets are of the inflated stream), nor a checkpoint whose
/// file now starts otherwise than its fingerprint or whose bytes before its offset changed (a copytruncate the
/// run has not noticed yet: the checkpoint is of the content that was there, and a restart does not take it
/// for the new one).
final class SavedAheadCheck {
    private let output: SimulatedOutput
    /// Checkpoints found behind the output once: it only grows, so they stay behind it (a save changes one
    /// file's checkpoint or two, and the others are not looked at again).
    private var behind = Set<Key>()

    private struct Key: Hashable {
        let path: String, identity: FileIdentity, fingerprint: Fingerprint, offset: Int64, tailHash: UInt64
        init(_ c: Checkpoint) { (path, identity, fingerprint, offset, tailHash) = (c.path, c.identity, c.fingerprint, c.offset, c.tailHash) }
    }

    init(output: SimulatedOutput) {
        self.output = output
    }

    /// The output was cut (a power loss): checkpoints found behind it are looked at again.
    func forget() { behind = [] }

    /// What is wrong with `checkpoints` being saved now (empty: nothing).
    func problems(saving checkpoints: [Checkpoint]) -> [String] {
        output.catchUp()
        var problems: [String] = []
        for checkpoint in checkpoints where checkpoint.offset > 0 && !behind.contains(Key(checkpoint)) {
            guard let lines = lines(before: checkpoint) else { continue }
            let missing = lines.filter { !output.delivered.contains($0) }
            if missing.isEmpty {
                behind.insert(Key(checkpoint))
            } else {
                problems.append("a checkpoint saved ahead of the output: \(Paths.baseName(of: checkpoint.path)) at \(checkpoint.offset), "
                                + "before it \(SimulatedOutcome.ranges(missing)) not in the output")
            }
        }
        return problems
    }

    /// The writers' lines before the checkpoint's offset in the file it names; nil when that file is not there
    /// as the checkpoint knew it, or is compressed.
    private func lines(before checkpoint: Checkpoint) -> [SimulatedHost.Line]? {
        let fd = open(checkpoint.path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let st = try? Syscall.fstat(fd), FileIdentity(st) == checkpoint.identity, Int64(st.st_size) >= checkpoint.offset,
              Fingerprinter.ofDescriptor(fd, complete: true)?.fingerprint == checkpoint.fingerprint,
              TailedFile.tailHash(fd: fd, before: checkpoint.offset) == checkpoint.tailHash else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(checkpoint.offset))
        let n = (try? bytes.withUnsafeMutableBytes { (raw) throws(Errno) in try Syscall.pread(fd, raw, at: 0) }) ?? 0
        guard n == bytes.count, !(n >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B) else { return nil }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { SimulatedOutput.line(String(decoding: $0, as: UTF8.self), writers: output.writers) }
    }
}
