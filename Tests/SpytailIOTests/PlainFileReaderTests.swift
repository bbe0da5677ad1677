import Testing
@testable import SpytailIO
import SpytailTestSupport

/// A plain file still written may end inside a line: `endAtLastNewline` ends reading after the last newline,
/// wherever the chunks fall, the opener's prefix included.
struct PlainFileReaderTests {
    /// (text, from, end): the end found, and the bytes read are the text up to it.
    @Test(arguments: [
        ("a\nbb\nccc", 0, 5),  // ends inside a line
        ("a\nbb\n", 0, 5),  // ends with its newline: all of it
        ("half a line", 0, 0),  // no newline: nothing
        ("a\nbb\nccc", 5, 5),  // none after the offset: the offset
        ("a\nbb\nccc", 3, 5),
    ])
    func readingEndsAfterTheLastNewline(_ text: String, _ from: Int, _ end: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let reader = try #require(try FileOpener.open(dir.write("app.log.1", text)) as? PlainFileReader)
        #expect(reader.endAtLastNewline(notBefore: Int64(from)) == Int64(end))
        let (bytes, error) = drain(reader, bufferSize: 3)
        #expect(error == nil)
        #expect(bytes == Array(text.utf8.prefix(end)))
    }

    /// The last newline more than one search chunk (64 KiB) before the end.
    @Test func theLastNewlineIsFoundFarBeforeTheEnd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = "first line\n" + String(repeating: "x", count: 200_000)
        let reader = try #require(try FileOpener.open(dir.write("app.log.1", text)) as? PlainFileReader)
        #expect(reader.endAtLastNewline(notBefore: 0) == 11)
        #expect(drain(reader, bufferSize: 4096).bytes == Array("first line\n".utf8))
    }
}
