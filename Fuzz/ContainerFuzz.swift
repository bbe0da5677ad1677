import CJSONScan

// libFuzzer target: a container runtime's log (CRI or Docker json-file, picked by the first byte, with or
// without a multiline rule) gives the same entries whatever the chunk boundaries, each physical Docker line is
// read alike by the one-pass C reader and the JSON scanner, and the runtime's time check accepts only what the
// timestamp parser reads.
public func fuzzContainer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let format: ContainerFormat = data[0] & 1 == 0 ? .cri : .docker
    let continuation = data[0] & 2 == 0 ? nil : try! Regex("^\\s")
    let chunk = Int(data[0] >> 2) + 1
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let file = SourceFile(path: "/var/log/pods/ns_pod_uid/c/0.log", fingerprint: Fingerprint(value: 1))
    func entries(chunk: Int) -> [[UInt8]] { chunkedEntries(input, chunk: chunk, EntryStream(file: file, maxLineBytes: 64, continuation: continuation, container: format)) }
    precondition(entries(chunk: chunk) == entries(chunk: max(1, input.count)), "entries depend on chunk boundaries")
    let fast = ContainerLineReader(format: .docker), general = ContainerLineReader(format: .docker)
    general.readsAsWritten = false
    for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let bytes = UnsafeBufferPointer(rebasing: line)
        let (a, b) = (containerOutcome(fast, bytes), containerOutcome(general, bytes))
        precondition(a == b, "the one-pass reader read \(String(describing: a)), the scanner \(String(describing: b))")
        if let base = bytes.baseAddress, cjs_is_runtime_time(base, bytes.count) == 1 {
            precondition(TimestampParser.iso8601(bytes) != nil, "a time the C check accepts is refused by the parser")
        }
    }
    return 0
}

func containerOutcome(_ reader: ContainerLineReader, _ line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    do throws(ParseProblem) {
        let read = try reader.read(line)
        return [read.stream == .stdout ? 1 : 2, read.partial ? 1 : 0] + Array(read.time) + [0] + Array(read.content) + [0] + Array(read.attrs ?? UnsafeBufferPointer(start: nil, count: 0))
    } catch {
        return nil
    }
}
