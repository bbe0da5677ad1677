import FoundationEssentials

// libFuzzer target: whatever bytes a message holds, the jsonl record parses as JSON, and valid UTF-8
// comes back unchanged.
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let vocabulary = Vocabulary(categories: [.init(name: "info", display: "i")], tags: [], fieldNames: [])
    var entry = SpyEntry(file: SourceFile(path: "fuzz \"path\"", fingerprint: Fingerprint(value: 7)))
    entry.text = bytes
    entry.headLength = bytes.count
    entry.message = 0..<bytes.count
    let out = OutputBuffer(capacity: 16)
    entry.text.withUnsafeBufferPointer { JSONLinesFormatter(vocabulary: vocabulary).format(entry, text: $0, into: out) }
    struct Record: Decodable { let message: String }
    guard let record = try? JSONDecoder().decode(Record.self, from: Data(out.array.dropLast())) else {
        preconditionFailure("not JSON: \(out.array)")
    }
    if let valid = String(validating: bytes, as: UTF8.self) {
        precondition(record.message == valid, "valid UTF-8 did not round-trip")
    }
    return 0
}
