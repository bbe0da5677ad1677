import Glibc

// libFuzzer target: the gzip reader on arbitrary bytes (behind a gzip header) yields data or a typed
// error, never a crash, and never more than it was given room for. Seek points are recorded on the way, and
// a reader restored at a few of them yields the same bytes the first pass did from there (or stops sooner).
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = "/tmp/spytail-fuzz-gzip.\(getpid())"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let header: [UInt8] = [0x1F, 0x8B]
    _ = header.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, 2) }
    _ = Glibc.write(fd, data, size)
    close(fd)
    defer { unlink(path) }
    guard let source = try? FileOpener.open(path) else { return 0 }
    let points = GzipSeekPoints(spacing: 64)
    (source as? GzipReader)?.seekPoints = points
    let kept = 1 << 20
    var first: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 37)
    var total = 0
    while total < 64 << 20 {
        guard let n = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 else { break }
        precondition(n <= buffer.count)
        if first.count < kept { first += buffer[..<min(n, kept - first.count)] }
        total += n
    }
    for offset in [Int64(0), Int64(first.count / 2), Int64(first.count)] {
        guard let point = points.point(atOrBefore: offset), point.uncompressedOffset < Int64(first.count) else { continue }
        let again = open(path, O_RDONLY)
        guard let reader = try? GzipReader(fd: again, path: path, resumingAt: point) else { continue }
        var at = Int(point.uncompressedOffset)
        while at < first.count {
            guard let n = try? buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), n > 0 else { break }
            let same = min(n, first.count - at)
            precondition(buffer[..<same].elementsEqual(first[at..<(at + same)]), "a restored reader differs at \(at)")
            at += n
        }
    }
    return 0
}
