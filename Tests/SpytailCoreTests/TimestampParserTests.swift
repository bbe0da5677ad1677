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

    /// The reader at fixed places agrees with the grammar read left to right (the reader before it, kept here
    /// as the reference) on every byte at every place of a set of times, on each one cut short and on each
    /// one with a byte more: the container log readers refuse a line by it.
    @Test func theFixedPlaceReaderAgreesWithTheGrammarReadLeftToRight() {
        let seeds = ["2026-11-20T10:00:00Z", "2026-11-20T10:00:00.123456789Z", "2026-11-20 10:00:00,5", "2026-11-20T11:00:00+01:00",
                     "2026-11-20T09:30:00-0030", "2000-02-29T00:00:00.1234567890123Z", "2262-04-11T23:47:16.854775807Z",
                     "1677-09-21T00:12:43.145224192Z", "9999-12-31T23:59:60z", "2026-11-20t10:00:00.5+14:00"]
        let bytes: [UInt8] = Array("0123456789-:T t.,Zz+/ \u{7F}".utf8) + [0x00, 0x2F, 0x3A, 0x80, 0xFF]
        var checked = 0
        for seed in seeds {
            let original = Array(seed.utf8)
            var variants = [original, original + [UInt8(ascii: "0")], original + [UInt8(ascii: "Z")]]
            variants += (0..<original.count).map { Array(original[..<$0]) }
            for k in original.indices { for b in bytes { var v = original; v[k] = b; variants.append(v) } }
            for v in variants {
                let (fast, reference) = v.withUnsafeBufferPointer { (TimestampParser.iso8601($0), Self.leftToRight($0)) }
                #expect(fast == reference, "\(String(decoding: v, as: UTF8.self))")
                checked += 1
            }
        }
        #expect(checked > 5_000)
    }

    /// The grammar read left to right, a digit group at a time.
    static func leftToRight(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var value = 0
            for k in i..<(i + n) {
                let d = Int(s[k]) - 48
                guard (0...9).contains(d) else { return nil }
                value = value * 10 + d
            }
            i += n
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard i < s.count, s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") || s[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
              let second = digits(2), hour < 24, minute < 60, second <= 60 else { return nil }
        var nanos: Int64 = 0
        if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
            i += 1
            var scale: Int64 = 100_000_000
            let start = i
            while i < s.count, (48...57).contains(s[i]) {
                nanos += Int64(s[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offsetSeconds = 0
        if i < s.count {
            switch s[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(UInt8(ascii: ":"))
                guard let om = digits(2) else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        guard i == s.count else { return nil }
        let days = TimestampParser.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return TimestampParser.instant(seconds: seconds, nanos: nanos)
    }
}
