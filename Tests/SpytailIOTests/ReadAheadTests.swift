import Testing
@testable import SpytailIO
import SpytailTestSupport

/// Reading ahead on a thread of its own hands over exactly what the source gives, in order, with the
/// source's error after the data before it, and stops cleanly when closed early.
struct ReadAheadTests {
    static let text = (0..<20_000).map { "line \($0) of a member\n" }.joined()

    /// Chunk and buffer sizes on both sides of each other, and a depth of one (the two threads take turns).
    @Test(arguments: [(chunk: 4096, depth: 4, buffer: 1000), (chunk: 1000, depth: 1, buffer: 4096), (chunk: 65536, depth: 2, buffer: 65536)])
    func handsOverTheSameBytesAsTheSource(_ sizes: (chunk: Int, depth: Int, buffer: Int)) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let half = Self.text.utf8.count / 2
        let path = dir.write("app.log.2.gz", Gzip.member(Array(Self.text.utf8.prefix(half))) + Gzip.member(Array(Self.text.utf8.dropFirst(half))))
        let ahead = ReadAhead(try FileOpener.open(path), chunkSize: sizes.chunk, depth: sizes.depth)
        defer { ahead.close() }
        #expect(ahead.isCompressed)
        let (bytes, error) = drain(ahead, bufferSize: sizes.buffer)
        #expect(error == nil)
        #expect(bytes.count == Self.text.utf8.count)
        #expect(bytes.elementsEqual(Self.text.utf8), "the bytes differ from the text (order or content)")
        #expect(try ahead.read(into: UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)) == 0)
    }

    @Test func aDamagedMemberGivesTheSameBytesAndTheSameErrorAsReadingDirectly() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = Gzip.member(Self.text)
        let path = dir.write("cut.gz", Array(whole[..<(whole.count / 2)]))
        let direct = drain(try FileOpener.open(path), bufferSize: 4096)
        let ahead = ReadAhead(try FileOpener.open(path), chunkSize: 4096, depth: 3)
        defer { ahead.close() }
        let through = drain(ahead, bufferSize: 4096)
        #expect(direct.error?.cause == .truncatedGzip)
        #expect(through.error == direct.error)
        #expect(through.bytes.elementsEqual(direct.bytes), "\(through.bytes.count) bytes against \(direct.bytes.count) read directly")
        #expect(through.bytes.count > 1000)
    }

    /// A consumer that stops early (an output failed) closes while the thread waits for a free chunk.
    @Test func closingBeforeTheEndStopsTheThread() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("big.gz", Gzip.member(Self.text))
        let ahead = ReadAhead(try FileOpener.open(path), chunkSize: 1024, depth: 2)
        var buffer = [UInt8](repeating: 0, count: 100)
        let n = try buffer.withUnsafeMutableBytes { try ahead.read(into: $0) }
        #expect(n == 100)
        #expect(Array(buffer) == Array(Self.text.utf8.prefix(100)))
        ahead.close()  // returns: the thread was waiting for a chunk and saw the cancel
        ahead.close()  // and a second close is harmless
    }
}
