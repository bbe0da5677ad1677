import Testing
@testable import SpytailCore

struct ByteNeedleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let needle: String, haystack: String, contains: Bool, prefix: Bool
        var testDescription: String { "\(needle) in \(haystack)" }
    }

    static let cases: [Case] = [
        .init(needle: "heartbeat", haystack: "heartbeat ok", contains: true, prefix: true),
        .init(needle: "heartbeat", haystack: "node heartbeat", contains: true, prefix: false),
        .init(needle: "heartbeat", haystack: "heartbea", contains: false, prefix: false),
        .init(needle: "aab", haystack: "aaaab", contains: true, prefix: false),  // candidate restarts
        .init(needle: "b", haystack: "aaab", contains: true, prefix: false),
        .init(needle: "[tca]", haystack: "[db] [tca] ", contains: true, prefix: false),
        .init(needle: "é", haystack: "Café", contains: true, prefix: false),
        .init(needle: "x", haystack: "", contains: false, prefix: false),
        .init(needle: "abc", haystack: "ab", contains: false, prefix: false),
        .init(needle: "end", haystack: "at the end", contains: true, prefix: false),  // match at the last position
    ]

    @Test(arguments: cases)
    func matches(_ c: Case) {
        let needle = ByteNeedle(c.needle)
        var haystack = c.haystack
        haystack.withUTF8 { bytes in
            #expect(needle.occurs(in: bytes) == c.contains)
            #expect(needle.isPrefix(of: bytes) == c.prefix)
        }
    }

    /// Both ways of looking (in place below 64 bytes, memchr and memcmp above) agree with a naive search, for needles of
    /// 1 to 6 bytes over a small alphabet (many near misses), at every haystack length around the switch.
    @Test func agreesWithANaiveSearchOnEitherSideOfTheShortHaystackLimit() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab[]".utf8)
        func naive(_ needle: [UInt8], _ haystack: [UInt8]) -> Bool {
            guard haystack.count >= needle.count else { return false }
            return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        for length in 0..<80 {
            for _ in 0..<40 {
                let haystack = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
                let needle = (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                let found = haystack.withUnsafeBufferPointer { ByteNeedle(bytes: needle).occurs(in: $0) }
                #expect(found == naive(needle, haystack), "\(needle) in \(haystack)")
            }
        }
    }
}

/// Regex modes: ASCII patterns run on bytes, others in UTF-8 mode; invalid bytes never break a match.
struct RegexTests {
    func matches(_ pattern: String, _ subject: [UInt8]) throws -> (Bool, Range<Int>?) {
        let regex = try Regex(pattern)
        let matched = subject.withUnsafeBufferPointer { regex.matches($0) }
        return (matched, matched ? regex.group(0) : nil)
    }

    @Test func asciiPatternsUseByteModeAndOthersUTF() throws {
        #expect(try Regex(#"^(\S+) (.*)$"#).isUTF == false)
        #expect(try Regex("Café").isUTF == true)
        #expect(try Regex("(*UTF)^.$").isUTF == true)
    }

    @Test func logPatternsGiveTheSameSpansInEitherMode() throws {
        let line = Array("2026-11-20T10:00:00Z INFO Café ✈ done".utf8)
        let ascii = try Regex(#"^(?<t>\S+) (?<l>[A-Z]+) (?<m>.*)$"#)
        let utf = try Regex("(*UTF)" + #"^(?<t>\S+) (?<l>[A-Z]+) (?<m>.*)$"#)
        #expect(line.withUnsafeBufferPointer { ascii.matches($0) } && line.withUnsafeBufferPointer { utf.matches($0) })
        #expect((1...3).map(ascii.group) == (1...3).map(utf.group))
    }

    @Test func invalidUTF8NeverFailsAMatch() throws {
        let bad: [UInt8] = [0x61, 0xFF, 0xC0, 0x62]
        #expect(try matches("a.*b", bad).0)
        #expect(try matches("é|b", bad).0)          // UTF mode, invalid subject
        #expect(try matches("(*UTF)a", bad).0)
    }

    @Test func utfModeSeesCharacters() throws {
        #expect(try matches("^é.$", Array("é✈".utf8)).0)
        #expect(try matches("(*UTF)^.$", Array("✈".utf8)).0)
        #expect(try matches("^.$", Array("✈".utf8)).0 == false)  // byte mode: three bytes
    }
}
