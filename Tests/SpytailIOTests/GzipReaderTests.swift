import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// The gzip reader on real files: multi-member, padding, truncation, corruption. Damage yields the
/// bytes before it, then an error naming the file and the compressed offset.
struct GzipReaderTests {
    /// Reads `path` to the end with a small buffer (member and buffer boundaries interleave).
    func readAll(_ path: String, bufferSize: Int = 7) -> (bytes: [UInt8], error: ReadError?) {
        do {
            return drain(try FileOpener.open(path), bufferSize: bufferSize)
        } catch {
            return ([], error)
        }
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func multiMemberFilesReadAsOneStream(bufferSize: Int) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("app.log.2.gz", Gzip.member("first\nsecond\n") + Gzip.member("") + Gzip.member("third\n"))
        let (bytes, error) = readAll(path, bufferSize: bufferSize)
        #expect(error == nil)
        #expect(String(decoding: bytes, as: UTF8.self) == "first\nsecond\nthird\n")
    }

    @Test func trailingZeroPaddingIsAccepted() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("padded.gz", Gzip.member("a\n") + [UInt8](repeating: 0, count: 1000))
        let (bytes, error) = readAll(path)
        #expect(error == nil)
        #expect(bytes == Array("a\n".utf8))
    }

    @Test func trailingGarbageIsReportedAfterTheData() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let member = Gzip.member("a\n")
        let path = dir.write("garbage.gz", member + Array("not gzip".utf8))
        let (bytes, error) = readAll(path)
        #expect(bytes == Array("a\n".utf8))
        #expect(error == ReadError(path: path, offset: Int64(member.count), cause: .trailingGarbage))
    }

    @Test func truncatedFileYieldsWhatDecompressedThenAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = (0..<5000).map { "line \($0) of a fairly compressible log\n" }.joined()
        let whole = Gzip.member(text)
        let path = dir.write("cut.gz", Array(whole[..<(whole.count / 2)]))
        let (bytes, error) = readAll(path, bufferSize: 4096)
        let readError = try #require(error)
        #expect(readError.cause == .truncatedGzip)
        #expect(readError.path == path)
        #expect(readError.offset == Int64(whole.count / 2))
        #expect(bytes.count > 1000)
        #expect(Array(text.utf8).starts(with: bytes))
        #expect(readError.description.contains("cut.gz: gzip data ends early"))
    }

    @Test func corruptDataYieldsWhatDecompressedThenAnErrorWithItsOffset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let good = Gzip.member((0..<200).map { "good \($0)\n" }.joined())
        var bad = Gzip.member((0..<200).map { "bad \($0)\n" }.joined())
        for i in 12..<bad.count - 8 { bad[i] = 0xFF }  // keep the header, wreck the deflate data
        let path = dir.write("corrupt.gz", good + bad)
        let (bytes, error) = readAll(path, bufferSize: 512)
        let readError = try #require(error)
        guard case .corruptGzip(let message) = readError.cause else {
            Issue.record("expected corrupt gzip, got \(readError)")
            return
        }
        #expect(!message.isEmpty)
        let offset = try #require(readError.offset)
        #expect(offset >= Int64(good.count) && offset <= Int64(good.count + bad.count))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix((0..<200).map { "good \($0)\n" }.joined()))
    }

    @Test func gzipIsDetectedByContentNotName() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let gz = dir.write("looks-plain.log", Gzip.member("zipped\n"))
        let plain = dir.write("looks-zipped.gz", "plain\n")
        #expect(readAll(gz).bytes == Array("zipped\n".utf8))
        #expect(readAll(plain).bytes == Array("plain\n".utf8))
        #expect((try? FileOpener.open(gz))?.isCompressed == true)
        #expect((try? FileOpener.open(plain))?.isCompressed == false)
    }

    /// What a restart knows of a rotated copy without reading it: a plain file's size, a gzip file's trailer.
    @Test func aCopysContentSizeIsItsSizeOrItsGzipTrailers() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let content = [UInt8](repeating: UInt8(ascii: "x"), count: 70_000) + [0x0A]
        let gz = dir.write("app.log.2.gz", Gzip.member(content))
        let plain = dir.write("app.log.1", "one\ntwo\n")
        #expect(FileOpener.contentSize(gz) == .gzip(isize: 70_001))
        #expect(FileOpener.contentSize(plain) == .plain(8))
        #expect(FileOpener.contentSize(dir.file("missing.log")) == nil)
        #expect(FileOpener.isPlain(plain) && !FileOpener.isPlain(gz) && !FileOpener.isPlain(dir.file("missing.log")))
        #expect(FileOpener.contentSize(dir.write("begun.gz", [0x1F, 0x8B, 0x08])) == nil)  // being written: its arrival comes later
    }

    @Test func unreadablePathsAreTypedErrors() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: ReadError(path: dir.path, cause: .notRegularFile("a directory"))) { try FileOpener.open(dir.path) }
        #expect(throws: ReadError.self) { try FileOpener.open(dir.file("missing.log")) }
        do {
            _ = try FileOpener.open(dir.file("missing.log"))
        } catch {
            #expect(error.description == "\(dir.file("missing.log")): cannot open: No such file or directory")
        }
    }

    @Test func emptyFilesAreEmpty() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(readAll(dir.write("empty.log", [])).bytes.isEmpty)
        #expect(readAll(dir.write("empty.gz", Gzip.member(""))).bytes.isEmpty)
    }
}
