import Testing
@testable import SpytailCore

/// Splits `input` pushed in chunks of every size from 1 to the whole, and checks each split gives the
/// same lines, offsets and flags.
struct LineSplitterTests {
    struct Expected: Equatable, CustomStringConvertible {
        let text: String, offset: Int64, truncated: Bool
        var description: String { "\(offset):\(text)\(truncated ? "[T]" : "")" }
    }

    func split(_ input: [UInt8], chunk: Int, max: Int = 1 << 20) -> [Expected] {
        var splitter = LineSplitter(maxLineBytes: max)
        var out: [Expected] = []
        let collect = { (line: Line) in
            out.append(Expected(text: String(decoding: line.bytes, as: UTF8.self), offset: line.offset, truncated: line.truncated))
        }
        input.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = Swift.min(start + chunk, all.count)
                splitter.push(UnsafeBufferPointer(rebasing: all[start..<end]), collect)
                start = end
            }
        }
        splitter.finish(collect)
        return out
    }

    struct Case: Sendable {
        let name: String, input: String, max: Int, expected: [(String, Int64, Bool)]
    }

    static let cases: [Case] = [
        Case(name: "plain", input: "a\nbb\nccc\n", max: 100, expected: [("a", 0, false), ("bb", 2, false), ("ccc", 5, false)]),
        Case(name: "no final newline", input: "a\nlast", max: 100, expected: [("a", 0, false), ("last", 2, false)]),
        Case(name: "CRLF", input: "a\r\nb\r\n", max: 100, expected: [("a", 0, false), ("b", 3, false)]),
        Case(name: "CR at end without newline", input: "a\r\nb\r", max: 100, expected: [("a", 0, false), ("b", 3, false)]),
        Case(name: "empty lines", input: "\n\nx\n", max: 100, expected: [("", 0, false), ("", 1, false), ("x", 2, false)]),
        Case(name: "NUL kept", input: "a\u{0}b\n", max: 100, expected: [("a\u{0}b", 0, false)]),
        Case(name: "long line truncated, next intact", input: "0123456789\nok\n", max: 4,
             expected: [("0123", 0, true), ("ok", 11, false)]),
        Case(name: "truncated last line", input: "ok\n0123456789", max: 4, expected: [("ok", 0, false), ("0123", 3, true)]),
        Case(name: "truncation on a character boundary", input: "ab✈cd\n", max: 4, expected: [("ab", 0, true)]),
        Case(name: "empty input", input: "", max: 100, expected: []),
    ]

    @Test(arguments: cases.map { ($0.name, $0) })
    func splitsTheSameWhateverTheChunking(_ name: String, _ c: Case) {
        let input = Array(c.input.utf8)
        let expected = c.expected.map { Expected(text: $0.0, offset: $0.1, truncated: $0.2) }
        for chunk in 1...Swift.max(1, input.count) {
            #expect(split(input, chunk: chunk, max: c.max) == expected, "chunk size \(chunk)")
        }
    }

    @Test func countsLinesAndStreamOffset() {
        var splitter = LineSplitter(maxLineBytes: 64, startOffset: 100)
        var offsets: [Int64] = []
        Array("x\nyy\nzzz".utf8).withUnsafeBufferPointer { splitter.push($0) { offsets.append($0.offset) } }
        #expect(offsets == [100, 102])
        #expect(splitter.pendingBytes == 3)
        #expect(splitter.pendingOffset == 105)
        #expect(splitter.streamOffset == 108)
        splitter.finish { offsets.append($0.offset) }
        #expect(offsets == [100, 102, 105])
        #expect(splitter.linesEmitted == 3)
    }
}
