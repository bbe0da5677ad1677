import CJSONScan
import SpytailCore
import SpytailLogGen
import Testing

/// `cjs_is_runtime_time`, the C check of a container runtime's RFC 3339 time on every physical line, answers
/// exactly what a plain reading of its grammar answers, and never accepts what the timestamp parser refuses.
struct RuntimeTimeCheckTests {
    static func check(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { cjs_is_runtime_time($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) == 1 }
    }

    /// The grammar read one byte at a time: `YYYY-MM-DDTHH:MM:SS`, years 1700…2199 and the usual ranges (second
    /// 60 for a leap second), then an optional `.` or `,` with at least one digit, then nothing, `Z`/`z`, or an
    /// offset `±HH:MM` / `±HHMM`.
    static func reference(_ t: [UInt8]) -> Bool {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for k in range {
                guard k < t.count, t[k] >= 0x30, t[k] <= 0x39 else { return nil }
                value = value * 10 + Int(t[k] - 0x30)
            }
            return value
        }
        guard t.count >= 20, t[4] == 0x2D, t[7] == 0x2D, t[10] == 0x54, t[13] == 0x3A, t[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1700...2199).contains(year), (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60
        else { return false }
        var i = 19
        if t[i] == 0x2E || t[i] == 0x2C {
            i += 1
            let start = i
            while i < t.count, t[i] >= 0x30, t[i] <= 0x39 { i += 1 }
            if i == start { return false }
        }
        if i == t.count { return true }
        if t[i] == 0x5A || t[i] == 0x7A { return i + 1 == t.count }
        guard t[i] == 0x2B || t[i] == 0x2D else { return false }
        i += 1
        guard number(i..<(i + 2)) != nil else { return false }
        i += 2
        if i < t.count, t[i] == 0x3A { i += 1 }
        guard number(i..<(i + 2)) != nil else { return false }
        return i + 2 == t.count
    }

    @Test(arguments: ["2026-11-18T11:06:40Z", "2026-11-18T11:06:40.001000003Z", "2026-11-18T11:06:40.1Z", "2026-11-18T11:06:40,5z",
                      "2026-11-18T11:06:40.123456789012+00:00", "2026-11-18T11:06:40.12345678-05:30", "2026-11-18T11:06:40+0100",
                      "2026-11-18T11:06:40.00000000", "1700-01-01T00:00:00Z", "2199-12-31T23:59:60Z"])
    func theTimesRuntimesWriteAreAccepted(time: String) {
        #expect(Self.check(Array(time.utf8)))
        #expect(Self.reference(Array(time.utf8)))
    }

    @Test(arguments: ["2026-13-18T11:06:40Z", "2026-11-00T11:06:40Z", "2026-11-18T24:06:40Z", "2026-11-18T11:60:40Z",
                      "2026-11-18T11:06:61Z", "2026-11-18 11:06:40Z", "2026-11-18T11:06:40.Z", "2026-11-18T11:06:40ZZ",
                      "2026-11-18T11:06:40+01", "2026-11-18T11:06:40+01:0", "1699-12-31T23:59:59Z", "2200-01-01T00:00:00Z",
                      "2026-11-18T11:06:4", "2026-1a-18T11:06:40Z", "2026-11-18T11:06:40.12345678x", "2026/11/18T11:06:40Z"])
    func anythingElseIsLeftToTheParser(time: String) {
        #expect(!Self.check(Array(time.utf8)))
        #expect(!Self.reference(Array(time.utf8)))
    }

    /// Random times, mutated a byte at a time (changed, dropped, added; digits, separators, bytes whose high or
    /// low nibble looks like a digit's): the check and the reading of the grammar agree on every one, and what
    /// the check accepts the timestamp parser reads.
    @Test func theCheckAgreesWithTheGrammarAndTheParserReadsWhatItAccepts() {
        var random = SplitMix64(seed: 2026)
        let bytes = Array("0123456789-T:.,Zz+ ".utf8) + [0x2F, 0x3A, 0x3F, 0x40, 0x20, 0x3A + 6, 0x00, 0xFF, 0xB5]
        var accepted = 0
        for round in 0..<60_000 {
            var time = Array(Self.randomTime(&random).utf8)
            for _ in 0..<(round % 3) {
                let at = random.below(time.count + 1)
                switch random.below(3) {
                case 0 where at < time.count: time[at] = random.pick(bytes)
                case 1 where at < time.count: time.remove(at: at)
                default: time.insert(random.pick(bytes), at: at)
                }
            }
            let fast = Self.check(time)
            guard fast == Self.reference(time) else {
                Issue.record("\(String(decoding: time, as: UTF8.self)): C \(fast), grammar \(!fast)")
                return
            }
            if fast {
                accepted += 1
                let parsed = time.withUnsafeBufferPointer { TimestampParser.iso8601($0) }
                #expect(parsed != nil, "\(String(decoding: time, as: UTF8.self)) accepted by the check, refused by the parser")
            }
        }
        #expect(accepted > 20_000)
    }

    /// A time as runtimes write it: a year near the edges sometimes, 0 to 12 fraction digits, `Z` or an offset.
    static func randomTime(_ random: inout SplitMix64) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = random.chance(10) ? random.pick([1699, 1700, 2199, 2200]) : 1990 + random.below(60)
        var text = "\(year)-\(two(1 + random.below(12)))-\(two(1 + random.below(31)))T\(two(random.below(24))):\(two(random.below(60))):\(two(random.below(61)))"
        let digits = random.below(13)
        if digits > 0 { text += (random.chance(90) ? "." : ",") + String((0..<digits).map { _ in Character(String(random.below(10))) }) }
        switch random.below(4) {
        case 0: text += "Z"
        case 1: text += "+\(two(random.below(24))):\(two(random.below(60)))"
        case 2: text += "-\(two(random.below(24)))\(two(random.below(60)))"
        default: break
        }
        return text
    }
}
