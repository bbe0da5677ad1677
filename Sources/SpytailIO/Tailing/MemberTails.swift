import Glibc
import SpytailCore

/// The tail hashes (`Checkpoint.tailHash`) of a file's content before chosen offsets, and how much content it
/// holds: a plain file's read with pread, a gzip one's by decompressing it once, up to the furthest offset.
/// What a resume compares with a checkpoint to tell whether a rotated member was cut back (`ContentMarks.wasCutBack`).
struct MemberTails {
    /// The content's size; at least the furthest offset asked when it holds that much (a gzip one is read no further).
    private(set) var size: Int64 = 0
    private var hashes: [Int64: UInt64] = [:]

    /// Nil when `path` cannot be read or no longer starts with `fingerprint`'s content (rotated since the look).
    init?(_ path: String, fingerprint: Fingerprint, before offsets: [Int64]) {
        guard let size = FileOpener.contentSize(path) else { return nil }
        let targets = Set(offsets.filter { $0 >= 0 }).sorted()
        if size.isPlain {
            guard let fd = try? Syscall.open(path, O_RDONLY) else { return nil }
            defer { Syscall.close(fd) }
            guard Fingerprinter.ofDescriptor(fd, complete: false)?.fingerprint == fingerprint,
                  let info = try? Syscall.fstat(fd) else { return nil }
            self.size = Int64(info.st_size)
            for offset in targets where offset <= self.size { hashes[offset] = TailedFile.tailHash(fd: fd, before: offset) }
        } else {
            guard let source = try? FileOpener.open(path), readCompressed(source, fingerprint: fingerprint, targets: targets) else { return nil }
        }
    }

    /// The tail hash before `offset`; nil beyond the content.
    func hash(before offset: Int64) -> UInt64? { offset <= size ? hashes[offset] : nil }

    /// Streams `source` up to the last target, hashing the bytes before each: the last `tailLength` bytes read
    /// are carried from chunk to chunk.
    private mutating func readCompressed(_ source: any ByteSource, fingerprint: Fingerprint, targets: [Int64]) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []  // the bytes just before `size`, at most `tailLength`
        var next = targets.startIndex, checkedHead = false
        if next < targets.endIndex && targets[next] == 0 {
            hashes[0] = Fingerprint.fnv1a(UnsafeBufferPointer(start: nil, count: 0))
            next += 1
        }
        while next < targets.endIndex {
            guard let n = try? source.read(into: buffer), n > 0 else { break }
            let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            if !checkedHead {
                // The first chunk of a gzip stream holds its first line (a line longer than a chunk is not checked).
                if let found = Fingerprint.of(head: chunk, complete: false), found != fingerprint { return false }
                checkedHead = true
            }
            let start = size
            size += Int64(n)
            while next < targets.endIndex && targets[next] <= size {
                let offset = targets[next]
                let length = Int(min(Int64(Checkpoint.tailLength), offset))
                let inChunk = Int(offset - start)
                var bytes = Array(carry.suffix(max(0, length - inChunk)))
                bytes.append(contentsOf: chunk[max(0, inChunk - length)..<inChunk])
                hashes[offset] = bytes.withUnsafeBufferPointer { Fingerprint.fnv1a($0) }
                next += 1
            }
            carry = Array((carry + chunk).suffix(Checkpoint.tailLength))
        }
        return true
    }
}
