/// Timestamp readers on bytes: no Foundation, no allocation.
public enum TimestampParser {
    /// RFC 3339 with the liberties ISO 8601 logs take: `T` or space between date and time, `.` or `,`
    /// before the fraction, `Z`, `±HH:MM`, `±HHMM` or no zone (read as UTC).
    public static func iso8601(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        // `YYYY-MM-DD?hh:mm:ss` sits at fixed places: read there, each digit checked (no loop, no closure:
        // a container log's reader checks the time of every line).
        guard s.count >= 19, let p = s.baseAddress else { return nil }
        @inline(__always) func digit(_ k: Int) -> Int { Int(p[k] &- 48) }  // > 9 for anything but a digit
        @inline(__always) func two(_ k: Int) -> Int? {
            let (a, b) = (digit(k), digit(k + 1))
            return a < 10 && b < 10 ? a * 10 + b : nil
        }
        guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"),
              p[10] == UInt8(ascii: "T") || p[10] == UInt8(ascii: "t") || p[10] == UInt8(ascii: " "),
              let century = two(0), let yy = two(2), let month = two(5), let day = two(8),
              let hour = two(11), let minute = two(14), let second = two(17),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
            i += 1
            // Nanoseconds: the first nine digits count, any after them are read and dropped (no division
            // per digit: a container log's times have nine).
            let start = i
            while i < s.count, digit(i) < 10 {
                if i - start < 9 { nanos = nanos * 10 + Int64(digit(i)) }
                i += 1
            }
            guard i > start else { return nil }
            for _ in min(i - start, 9)..<9 { nanos *= 10 }
        }
        var offsetSeconds = 0
        if i < s.count {
            switch s[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard i + 2 <= s.count, let oh = two(i) else { return nil }
                i += 2
                if i < s.count, s[i] == UInt8(ascii: ":") { i += 1 }
                guard i + 2 <= s.count, let om = two(i) else { return nil }
                i += 2
                offsetSeconds = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        guard i == s.count else { return nil }
        let days = daysFromCivil(year: century * 100 + yy, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return instant(seconds: seconds, nanos: nanos)
    }

    /// Seconds and nanoseconds as nanoseconds since the epoch; nil outside what an Int64 holds (years before
    /// 1678 or after 2261), which a line can hold and must not trap on.
    public static func instant(seconds: Int64, nanos: Int64) -> Int64? {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (sum, carry) = scaled.addingReportingOverflow(nanos)
        return carry ? nil : sum
    }

    /// `1795168800` or `1795168800.123456` seconds.
    public static func decimalSeconds(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let dot = s.firstIndex(of: UInt8(ascii: ".")) else { return integer(s).flatMap { instant(seconds: $0, nanos: 0) } }
        guard let whole = integer(UnsafeBufferPointer(rebasing: s[..<dot])) else { return nil }
        var nanos: Int64 = 0
        var scale: Int64 = 100_000_000
        for b in s[(dot + 1)...] {
            guard (48...57).contains(b) else { return nil }
            nanos += Int64(b - 48) * scale
            scale /= 10
        }
        return instant(seconds: whole, nanos: nanos)
    }

    /// A non-negative decimal integer of at most 19 digits (nanoseconds since the epoch need 19), nil past Int64.
    public static func integer(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !s.isEmpty, s.count <= 19 else { return nil }
        var value: Int64 = 0
        for b in s {
            guard (48...57).contains(b) else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(b - 48))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (Howard Hinnant's algorithm).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses an RFC 3339 instant given as a String (command-line options).
    public static func iso8601(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { iso8601($0) }
    }
}
