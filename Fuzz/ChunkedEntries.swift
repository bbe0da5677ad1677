/// The entries `stream` gives for `input` pushed in chunks of `chunk` bytes, each with the low byte of its offset
/// (the line and container targets compare them across chunk sizes).
func chunkedEntries(_ input: UnsafeBufferPointer<UInt8>, chunk: Int, _ stream: EntryStream) -> [[UInt8]] {
    var stream = stream
    var out: [[UInt8]] = []
    var start = 0
    while start < input.count {
        let end = min(start + chunk, input.count)
        stream.push(UnsafeBufferPointer(rebasing: input[start..<end])) { out.append($0.text + [UInt8(truncatingIfNeeded: $0.offset)]) }
        start = end
    }
    stream.finish { out.append($0.text + [UInt8(truncatingIfNeeded: $0.offset)]) }
    return out
}
