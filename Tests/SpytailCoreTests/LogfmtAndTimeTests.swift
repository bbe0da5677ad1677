import Testing
@testable import SpytailCore

struct LogfmtScannerTests {
    static func pairs(_ line: String) -> ([(String, String, FieldValue.Kind, Bool)], ParseProblem?) {
        let bytes = Array(line.utf8)
        var found: [(String, String, FieldValue.Kind, Bool)] = []
        let problem: ParseProblem? = bytes.withUnsafeBufferPointer { p in
            do throws(ParseProblem) {
                try LogfmtScanner.scan(p.baseAddress!, p.count) { pair in
                    found.append((String(decoding: bytes[pair.key], as: UTF8.self), String(decoding: bytes[pair.value], as: UTF8.self),
                                  pair.kind, pair.escaped))
                }
                return nil
            } catch { return error }
        }
        return (found, problem)
    }

    @Test func readsPairsQuotedValuesAndFlags() {
        let (found, problem) = Self.pairs(#"level=info msg="a \"quoted\" value" took=12ms empty= cached path=/a=b"#)
        #expect(problem == nil)
        #expect(found.map(\.0) == ["level", "msg", "took", "empty", "cached", "path"])
        #expect(found.map(\.1) == ["info", #"a \"quoted\" value"#, "12ms", "", "", "/a=b"])
        #expect(found.map(\.2) == [.text, .text, .text, .text, .true, .text])
        #expect(found.map(\.3) == [false, true, false, false, false, false])
    }

    @Test(arguments: [
        (#"msg="never closed"#, ParseProblem(.logfmt, .unterminatedQuote, at: 4)),
        ("Traceback (most recent call last):", ParseProblem(.logfmt, .noPairs, at: 0)),
        (#"a=1 "b"=2"#, ParseProblem(.logfmt, .unexpectedByte(UInt8(ascii: "\"")), at: 4)),
    ])
    func refuses(_ line: String, _ expected: ParseProblem) {
        #expect(Self.pairs(line).1 == expected)
    }
}

struct TimestampFormatTests {
    static func parse(_ format: TimestampFormat, _ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { format.parse($0) }
    }

    @Test func strptimeReadsNginxApacheAndPythonLayouts() throws {
        let nginx = try TimestampFormat(name: "%d/%b/%Y:%H:%M:%S %z")
        #expect(Self.parse(nginx, "25/Nov/2026:12:00:01 +0100") == Self.parse(.iso8601, "2026-11-25T11:00:01Z"))
        let python = try TimestampFormat(name: "%Y-%m-%d %H:%M:%S,%f")
        #expect(Self.parse(python, "2026-11-25 12:00:01,250") == Self.parse(.iso8601, "2026-11-25T12:00:01.25Z"))
        let full = try TimestampFormat(name: "%e %B %Y %T %Z")
        #expect(Self.parse(full, " 5 November 2026 08:09:10 UTC") == Self.parse(.iso8601, "2026-11-05T08:09:10Z"))
        #expect(Self.parse(nginx, "25/Nov/2026:12:00:01") == nil)
        #expect(Self.parse(nginx, "25/Xyz/2026:12:00:01 +0100") == nil)
    }

    @Test func strptimePatternsThatCannotWorkAreRefused() {
        #expect(throws: StrptimePattern.Problem.self) { try TimestampFormat(name: "%Q %H") }
        #expect(throws: StrptimePattern.Problem.self) { try TimestampFormat(name: "%Y-%m") }
        #expect(throws: StrptimePattern.Problem.self) { try TimestampFormat(name: "unix") }
    }

    /// Found by the structured fuzz target: a year past 2261 overflowed the nanoseconds and trapped.
    @Test func instantsBeyondWhatNanosecondsHoldAreNotReadInsteadOfTrapping() throws {
        #expect(Self.parse(.iso8601, "2826-11-25T10:00:00Z") == nil)
        #expect(Self.parse(.auto, "2826-11-25T10:00:00Z") == nil)
        #expect(Self.parse(.epochMillis, "999999999999999999") == nil)
        #expect(Self.parse(.epoch, "999999999999999999.5") == nil)
        #expect(Self.parse(try TimestampFormat(name: "%Y-%m-%d %H"), "9999-12-31 23") == nil)
        #expect(Self.parse(.iso8601, "2261-12-31T23:59:59Z") != nil)
    }

    @Test func autoReadsISOTextAndEpochNumbersBySize() {
        let instant: Int64 = 1_795_168_800_000_000_000
        #expect(Self.parse(.auto, "2026-11-20T10:00:00Z") == Self.parse(.iso8601, "2026-11-20T10:00:00Z"))
        #expect(Self.parse(.auto, "1795168800") == instant)
        #expect(Self.parse(.auto, "1795168800.5") == instant + 500_000_000)
        #expect(Self.parse(.auto, "1795168800123") == instant + 123_000_000)
        #expect(Self.parse(.auto, "1795168800123456") == instant + 123_456_000)
        #expect(Self.parse(.auto, "1795168800123456789") == instant + 123_456_789)
        #expect(Self.parse(.epochNanos, "1795168800123456789") == instant + 123_456_789)
        #expect(Self.parse(.auto, "soon") == nil)
    }
}
