import CJSONScan
import FoundationEssentials
import Testing
@testable import SpytailCore

struct OutputBufferTests {
    func escaped(_ bytes: [UInt8]) -> String {
        let buffer = OutputBuffer(capacity: 8)  // small: growth is exercised too
        bytes.withUnsafeBufferPointer { buffer.appendJSONString($0) }
        return String(decoding: buffer.array, as: UTF8.self)
    }

    @Test func everyControlCharacterIsEscapedAndParsesBack() throws {
        for byte in UInt8(0)...0x1F {
            let json = escaped([UInt8(ascii: "a"), byte, UInt8(ascii: "b")])
            #expect(!json.utf8.contains { $0 < 0x20 }, "raw control byte \(byte) in \(json)")
            let decoded = try JSONDecoder().decode(String.self, from: Data(json.utf8))
            #expect(decoded.unicodeScalars.map(\.value) == [0x61, UInt32(byte), 0x62])
        }
    }

    @Test(arguments: [
        ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\t", #""\t""#), ("\r", #""\r""#),
        ("\u{0}", #""\u0000""#), ("\u{1B}", #""\u001b""#), ("é✈「", "\"é✈「\""), ("plain", "\"plain\""),
    ])
    func escapes(_ input: String, _ expected: String) {
        #expect(escaped(Array(input.utf8)) == expected)
    }

    @Test(arguments: [
        [0xFF] as [UInt8],            // never valid
        [0xC0, 0xAF],                 // overlong '/'
        [0xED, 0xA0, 0x80],           // UTF-16 surrogate
        [0xE2, 0x9C],                 // cut short
        [0x80],                       // stray continuation
        [0xF4, 0x90, 0x80, 0x80],     // beyond U+10FFFF
    ])
    func invalidUTF8BecomesReplacementCharacters(_ bad: [UInt8]) throws {
        let json = escaped([UInt8(ascii: "x")] + bad + [UInt8(ascii: "y")])
        let decoded = try JSONDecoder().decode(String.self, from: Data(json.utf8))
        #expect(decoded.hasPrefix("x") && decoded.hasSuffix("y"))
        #expect(decoded.contains("\u{FFFD}"))
        #expect(!decoded.dropFirst().dropLast().contains { $0 != "\u{FFFD}" })
    }

    @Test(arguments: [0, 7, -7, 10, 42, 99, 100, 101, 1009, -10, 1234567890123, Int64.max, Int64.min + 1])
    func decimals(_ value: Int64) {
        let buffer = OutputBuffer()
        buffer.append(decimal: value)
        #expect(String(decoding: buffer.array, as: UTF8.self) == String(value))
    }

    @Test func hexIsSixteenDigits() {
        let buffer = OutputBuffer()
        buffer.append(hex: 0xAB)
        #expect(String(decoding: buffer.array, as: UTF8.self) == "00000000000000ab")
    }
}

/// The clean-run copy (16 bytes at a time, then the last 16 overlapping) must stop exactly at the first byte
/// that needs escaping, wherever it sits, whatever comes after it, and never write at or past `n`.
struct ByteCursorTests {
    @Test func theCleanRunCopyStopsAtTheFirstByteThatNeedsEscapingAtEveryPositionAndLength() {
        for byte in UInt8.min...UInt8.max {
            let needs = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x80
            for length in 1...40 {
                for position in 0..<length {
                    for filler: UInt8 in [UInt8(ascii: "a"), 0x00, 0xFF, 0x22] {
                        // Before the byte: clean; after it: `filler`, which may need escaping too.
                        var source = [UInt8](repeating: UInt8(ascii: "b"), count: position)
                        source.append(byte)
                        source += [UInt8](repeating: filler, count: length - position - 1)
                        let fillerClean = filler == UInt8(ascii: "a")
                        let expected = needs ? position : (fillerClean || position == length - 1 ? length : position + 1)
                        var target = [UInt8](repeating: 0xEE, count: length + 16)
                        let copied = source.withUnsafeBufferPointer { s in
                            target.withUnsafeMutableBufferPointer { cjs_copy_clean(s.baseAddress!, length, $0.baseAddress!) }
                        }
                        #expect(copied == expected, "byte \(byte) at \(position) of \(length), then \(filler)")
                        #expect(Array(target[..<copied]) == Array(source[..<copied]), "byte \(byte) at \(position) of \(length)")
                        #expect(target[length...].allSatisfy { $0 == 0xEE }, "wrote past n: byte \(byte) at \(position) of \(length)")
                    }
                }
            }
        }
    }

    /// Escaping a whole string gives the bytes of escaping its pieces one by one. Each piece is shorter than
    /// a word, so the pieces go through the byte path alone, while the whole goes through the word loop and
    /// the byte path in every mix (the pieces never combine into new UTF-8).
    @Test func escapingAWholeStringEqualsEscapingItsPiecesAtAnyLengthAndMix() {
        let pieces: [[UInt8]] = [[0x61], [0x62, 0x63], [0x22], [0x5C], [0x0A], [0x01], [0x7F], [0xC3, 0xA9],
                                 [0xE2, 0x9C, 0x88], [0xFF], [0x80], Array("clean".utf8)]
        func escaped(_ bytes: [UInt8]) -> [UInt8] {
            let buffer = OutputBuffer(capacity: 8)
            buffer.write(reserving: ByteCursor.jsonRoom(bytes.count)) { c in
                bytes.withUnsafeBufferPointer { c.appendJSONEscaped($0) }
            }
            return buffer.array
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {  // SplitMix64: the same strings on every run
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        for _ in 0..<5_000 {
            // Mostly clean pieces, so long clean runs and tails of every length occur.
            let chosen = (0..<next(30)).map { _ in next(3) == 0 ? pieces[next(pieces.count)] : pieces[next(2)] }
            let whole = escaped(chosen.flatMap { $0 })
            let byPiece = chosen.flatMap { escaped($0) }
            #expect(whole == byPiece, "\(chosen)")
            if whole != byPiece { return }
        }
    }

    @Test func escapesTheSameWhereverTheSpecialByteFalls() throws {
        for special in ["\"", "\\", "\n", "\u{1}", "é", "\u{7F}"] {
            for position in 0..<40 {
                let input = String(repeating: "x", count: position) + special + String(repeating: "y", count: 39 - position)
                let buffer = OutputBuffer(capacity: 8)
                Array(input.utf8).withUnsafeBufferPointer { buffer.appendJSONString($0) }
                let decoded = try JSONDecoder().decode(String.self, from: Data(buffer.array))
                #expect(decoded == input)
            }
        }
    }
}
