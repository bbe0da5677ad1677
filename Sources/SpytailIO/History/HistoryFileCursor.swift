import Glibc
import SpytailCore

/// Reads one file of the history from a given offset of its decompressed stream. A plain file is read from the
/// offset itself (a seek). A gzip file is inflated from the nearest seek point before the offset that indexing
/// recorded (`GzipSeekPoints`; from the start of the file without one), and the cursor keeps its reader open
/// with the last chunk it read: reading on from where the last read stopped (the next page, the next block of
/// a search) costs only the new bytes.
///
/// Every open checks that the file still starts with the line it was indexed by. When it does not (a rotation
/// moved the content away and a new file took its name), the content is looked for among the file's rotated
/// copies in its folder (`app.log.1`, `app.log.1.gz`: a gzip copy holds the same decompressed stream, so the
/// offsets still hold); a content found nowhere gives no entries rather than someone else's.
final class HistoryFileCursor {
    /// Where the content is: the path it was indexed at, or the rotated copy it was found at since.
    private(set) var path: String
    let fingerprint: Fingerprint
    /// The gzip file's seek points (nil: a plain file, or none recorded).
    private var seekPoints: GzipSeekPoints?
    private var source: (any ByteSource)?
    /// Bytes of the decompressed stream read from `source` so far.
    private var position: Int64 = 0
    /// The last chunk read, which ends at `position`.
    private var last: [UInt8] = []
    /// The file was found to be gzip (decided at the first open).
    private(set) var isCompressed = false
    private var decided = false

    init(path: String, fingerprint: Fingerprint, seekPoints: GzipSeekPoints? = nil) {
        self.path = path
        self.fingerprint = fingerprint
        self.seekPoints = seekPoints
    }

    /// Feeds `body` the file's bytes from `offset` on, chunk by chunk, until it returns false or the file ends.
    /// Returns the offset reached. A read error is thrown after the bytes before it were fed.
    func read(from offset: Int64, into buffer: UnsafeMutableRawBufferPointer,
              _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(ReadError) -> Int64 {
        var at = offset
        if let source, isCompressed, offset >= position - Int64(last.count), offset <= position {
            let kept = Int(offset - (position - Int64(last.count)))
            let more = last.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[kept...])) }
            at = position
            if !more { return at }
            return try readOn(source, at: at, into: buffer, body)
        }
        let source: any ByteSource
        if let open = self.source, isCompressed, offset > position, !nearerPoint(than: position, for: offset) {
            source = open  // inflating on from here is the shortest way there
        } else {
            source = try open(at: offset)
        }
        if isCompressed {
            try skip(source, to: offset, into: buffer)
            if position < offset { return position }
        }
        return try readOn(source, at: offset, into: buffer, body)
    }

    /// Forgets the open reader (the next read opens the file again).
    func close() {
        source = nil
        last = []
        position = 0
    }

    /// Looks for the content among the rotated copies in `path`'s folder (`MovedContent`); on finding it, reads it there
    /// from now on, from its start (the seek points were taken in the file as it was; a copy may be compressed
    /// differently).
    private func relocate() -> Bool {
        guard let copy = MovedContent.find(fingerprint, near: path) else { return false }
        path = copy
        (decided, isCompressed, seekPoints) = (false, false, nil)
        return true
    }

    /// Whether a seek point lies between `position` and `offset` (starting there inflates less).
    private func nearerPoint(than position: Int64, for offset: Int64) -> Bool {
        guard let point = seekPoints?.point(atOrBefore: offset) else { return false }
        return point.uncompressedOffset > position
    }

    private func open(at offset: Int64) throws(ReadError) -> any ByteSource {
        close()
        guard Fingerprinter.ofFile(path) == fingerprint || relocate() else {
            throw ReadError(path: path, offset: 0, cause: .replaced)
        }
        if let point = seekPoints?.point(atOrBefore: offset) {
            let (fd, _) = try FileOpener.openRegularFile(path)
            // Still gzip (the same content decompressed in place reads as a plain file: below).
            if FileOpener.startsWithGzipMagic(fd) {
                let reader = try GzipReader(fd: fd, path: path, resumingAt: point)
                (isCompressed, decided) = (true, true)
                source = reader
                position = point.uncompressedOffset
                return reader
            }
            Syscall.close(fd)
        }
        if !decided || isCompressed {
            let opened = try FileOpener.open(path)
            (isCompressed, decided) = (opened.isCompressed, true)
            if isCompressed {
                source = opened
                return opened
            }
        }
        // A plain file: start at the offset itself.
        let (fd, _) = try FileOpener.openRegularFile(path)
        if lseek(fd, off_t(offset), SEEK_SET) < 0 {
            Syscall.close(fd)
            throw ReadError(path: path, offset: offset, cause: .read(Errno(errno)))
        }
        let reader = PlainFileReader(fd: fd, path: path)
        position = offset
        return reader
    }

    /// Inflates and drops what comes before `offset`; the chunk that holds it is kept in `last`.
    private func skip(_ source: any ByteSource, to offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) {
        while position < offset {
            let n = try source.read(into: buffer)
            if n == 0 { return }
            position += Int64(n)
            if position >= offset { keep(buffer, n) }
        }
    }

    private func readOn(_ source: any ByteSource, at start: Int64, into buffer: UnsafeMutableRawBufferPointer,
                        _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(ReadError) -> Int64 {
        var at = start
        // The rest of the chunk that held `start`, when skipping ended inside one.
        if isCompressed && position > at {
            let kept = Int(at - (position - Int64(last.count)))
            let more = last.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[kept...])) }
            at = position
            if !more { return at }
        }
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return at }
            if isCompressed { keep(buffer, n) }
            position = isCompressed ? position + Int64(n) : at + Int64(n)
            at += Int64(n)
            if !body(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) { return at }
        }
    }

    private func keep(_ buffer: UnsafeMutableRawBufferPointer, _ n: Int) {
        last.removeAll(keepingCapacity: true)
        last.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
    }
}
