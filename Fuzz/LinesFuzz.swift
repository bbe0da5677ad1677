// libFuzzer target: splitting and multiline assembly give the same entries whatever the chunk boundaries.
// The first byte picks the chunk size; the rest is the input.
public func fuzzLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let chunk = Int(data[0]) + 1
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let continuation = try! Regex("^\\s")
    let file = SourceFile(path: "fuzz", fingerprint: Fingerprint(value: 1))
    func entries(chunk: Int) -> [[UInt8]] { chunkedEntries(input, chunk: chunk, EntryStream(file: file, maxLineBytes: 64, continuation: continuation)) }
    let whole = entries(chunk: max(1, input.count))
    precondition(entries(chunk: chunk) == whole, "entries depend on chunk boundaries")
    // Each entry is its lines joined by newlines, then the offset's byte: no line may pass maxLineBytes. (An
    // entry itself has no bound: any number of continuation lines join it.)
    precondition(whole.allSatisfy { $0.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).allSatisfy { $0.count <= 64 } },
                 "a line longer than maxLineBytes got through")
    return 0
}
