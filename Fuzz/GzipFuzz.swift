import Glibc

// libFuzzer target: the gzip reader on arbitrary bytes (behind a gzip header) yields data or a typed
// error, never a crash, and never more than it was given room for.
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = "/tmp/spytail-fuzz-gzip.\(getpid())"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let header: [UInt8] = [0x1F, 0x8B]
    _ = header.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, 2) }
    _ = Glibc.write(fd, data, size)
    close(fd)
    defer { unlink(path) }
    guard let source = try? FileOpener.open(path) else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 37)
    var total = 0
    while total < 64 << 20 {
        guard let n = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 else { break }
        precondition(n <= buffer.count)
        total += n
    }
    return 0
}
