import Testing
@testable import SpytailCore

/// The explorer's search: smart case as in less and lnav, or a regex.
struct TextSearchTests {
    func matches(_ search: TextSearch, _ message: String) -> Bool {
        Array(message.utf8).withUnsafeBufferPointer { search.matches($0) }
    }

    @Test func aTextWithoutCapitalsMatchesAnyCase() throws {
        let search = try TextSearch("timeout", mode: .text)
        #expect(!search.caseSensitive)
        #expect(matches(search, "upstream TIMEOUT after 3 s"))
        #expect(matches(search, "Timeout"))
        #expect(matches(search, "a timeout"))
        #expect(!matches(search, "time out"))
        #expect(!matches(search, "timeou"))
    }

    @Test func aTextWithCapitalsMatchesOnlyItself() throws {
        let search = try TextSearch("Store:", mode: .text)
        #expect(search.caseSensitive)
        #expect(matches(search, "Store: action received"))
        #expect(!matches(search, "store: action received"))
    }

    @Test func nonAsciiBytesMatchAsTheyAre() throws {
        #expect(matches(try TextSearch("é", mode: .text), "café"))
        #expect(!matches(try TextSearch("é", mode: .text), "CAFÉ"))
    }

    @Test func aRegexMatchesAsWrittenAndABadOneSaysWhere() throws {
        let search = try TextSearch("status=5\\d\\d", mode: .regex)
        #expect(matches(search, "GET / status=503"))
        #expect(!matches(search, "GET / status=404"))
        #expect(matches(try TextSearch("(?i)error", mode: .regex), "ERROR here"))
        #expect(throws: RegexError.self) { try TextSearch("(", mode: .regex) }
    }

    @Test func anEmptyTextMatchesEverything() throws {
        #expect(matches(try TextSearch("", mode: .text), "anything"))
    }
}
