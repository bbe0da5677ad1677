/// A source whose first bytes were already read (to check its fingerprint): hands them out again first.
final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private var used = 0
    private let rest: any ByteSource

    init(prefix: UnsafeRawBufferPointer, rest: any ByteSource) {
        self.prefix = Array(prefix)
        self.rest = rest
    }

    var isCompressed: Bool { rest.isCompressed }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        guard used < prefix.count else { return try rest.read(into: buffer) }
        let n = min(buffer.count, prefix.count - used)
        prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + used, byteCount: n) }
        used += n
        return n
    }
}
