import SpytailIO

/// Reads `source` to its end, or to its error, with buffers of `bufferSize` bytes (a small size makes reads
/// and the source's own boundaries interleave): everything it handed out, and the error it ended with.
public func drain(_ source: any ByteSource, bufferSize: Int) -> (bytes: [UInt8], error: ReadError?) {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    do {
        while true {
            let n = try buffer.withUnsafeMutableBytes { raw in try source.read(into: raw) }
            if n == 0 { return (out, nil) }
            out += buffer[..<n]
        }
    } catch {
        return (out, error as? ReadError)
    }
}
