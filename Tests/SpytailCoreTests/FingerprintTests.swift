import Testing
@testable import SpytailCore

struct FingerprintTests {
    func fingerprint(_ text: String, complete: Bool) -> Fingerprint? {
        Array(text.utf8).withUnsafeBufferPointer { Fingerprint.of(head: $0, complete: complete) }
    }

    @Test func coversTheFirstLineOnly() {
        #expect(fingerprint("first\nsecond\n", complete: false) == fingerprint("first\nother\n", complete: false))
        #expect(fingerprint("first\nsecond\n", complete: false) != fingerprint("First\nsecond\n", complete: false))
    }

    @Test func waitsForTheFirstNewlineUnlessTheStreamIsComplete() {
        #expect(fingerprint("no newline yet", complete: false) == nil)
        #expect(fingerprint("no newline yet", complete: true) != nil)
        #expect(fingerprint("", complete: true) == nil)
    }

    @Test func capsAtTheHeadLimit() {
        let long = String(repeating: "x", count: Fingerprint.headLimit)
        #expect(fingerprint(long + "a", complete: false) == fingerprint(long + "b\n", complete: false))
        #expect(fingerprint(long, complete: false) != nil)
    }

    @Test func printsSixteenHexDigits() {
        #expect(Fingerprint(value: 0x1F).description == "000000000000001f")
    }
}
