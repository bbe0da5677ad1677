import Testing
@testable import SpytailCore

struct TimestampParserTests {
    static let base: Int64 = 1_795_168_800_000_000_000  // 2026-11-20T10:00:00Z
    static let valid: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-11-20T10:00:00Z", base),
        ("2026-11-20T10:00:00.123456Z", base + 123_456_000),
        ("2026-11-20 10:00:00,5", base + 500_000_000),
        ("2026-11-20T11:00:00+01:00", base),
        ("2026-11-20T09:30:00-0030", base),
        ("2000-02-29T00:00:00Z", 951_782_400_000_000_000),
    ]

    @Test(arguments: valid)
    func iso8601(_ text: String, _ nanos: Int64) {
        #expect(TimestampParser.iso8601(text) == nanos)
    }

    @Test(arguments: ["", "2026-11-20", "2026-13-01T00:00:00Z", "2026-11-20T25:00:00Z", "2026-11-20T10:00:00Q",
                      "2026-11-20T10:00:00.Z", "20261120T100000Z", "2026-11-20T10:00:00Z trailing"])
    func rejectsNonTimestamps(_ text: String) {
        #expect(TimestampParser.iso8601(text) == nil)
    }

    @Test func epochFormats() {
        var s = "1795168800.25"
        s.withUTF8 { #expect(TimestampFormat.epoch.parse($0) == 1_795_168_800_250_000_000) }
        var ms = "1795168800123"
        ms.withUTF8 { #expect(TimestampFormat.epochMillis.parse($0) == 1_795_168_800_123_000_000) }
        ms.withUTF8 { #expect(TimestampFormat.none.parse($0) == nil) }
    }
}
