import Testing
@testable import SpytailCore

/// The first-byte shortcut must answer exactly as the regex it stands for, for every byte a line can start with.
struct ContinuationRuleTests {
    func continues(_ rule: ContinuationRule, _ bytes: [UInt8], entryOpen: Bool = true) -> Bool {
        bytes.withUnsafeBufferPointer { rule.continues(Line(bytes: $0, offset: 0, truncated: false), entryBytes: entryOpen ? 0 : nil) }
    }

    @Test(arguments: [#"^\s"#, #"^\s+"#, #"^[ \t]"#, #"^[ \t]+"#, #"^[\t ]"#, #"^[\t ]+"#])
    func theShortcutAgreesWithTheRegexOnEveryFirstByte(_ pattern: String) throws {
        let regex = try Regex(pattern)
        let rule = ContinuationRule(regex, maxLineBytes: 1 << 20)
        #expect(FirstByteSet(pattern: pattern) != nil)
        for byte in UInt8.min...UInt8.max {
            for line in [[byte], [byte, UInt8(ascii: "x")], [byte, 0x20]] {
                let expected = line.withUnsafeBufferPointer { regex.matches($0) }
                #expect(continues(rule, line) == expected, "\(pattern) on first byte \(byte)")
            }
        }
        #expect(!continues(rule, []))
        #expect(!continues(rule, [0x20], entryOpen: false))
    }

    @Test func otherRulesGoThroughTheRegex() throws {
        #expect(FirstByteSet(pattern: #"^\s+at "#) == nil)
        let rule = ContinuationRule(try Regex(#"^\s+at "#), maxLineBytes: 1 << 20)
        #expect(continues(rule, Array("    at Foo.bar".utf8)))
        #expect(!continues(rule, Array("    caused".utf8)))
    }
}
