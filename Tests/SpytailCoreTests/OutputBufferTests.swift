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

    @Test(arguments: [0, 7, -7, 1234567890123, Int64.max, Int64.min + 1])
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
