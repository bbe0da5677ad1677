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
}
