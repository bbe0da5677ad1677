/// A timestamp layout in strptime's words, read on bytes: `%d/%b/%Y:%H:%M:%S %z` (nginx, Apache),
/// `%Y-%m-%d %H:%M:%S,%f` (Python's asctime), `%b %e %H:%M:%S` (syslog; the year is then unknown and the
/// time is not read). Directives: `%Y %m %d %e %H %M %S %f %b %B %z %Z %T %F %s %%`; `%f` is a fraction
/// of any length; `%z` takes `Z`, `±HH:MM` and `±HHMM`; `%e` and `%d` take one or two digits; any other
/// byte must be there as written, and a space matches one or more spaces.
public struct StrptimePattern: Sendable, Hashable, CustomStringConvertible {
    enum Piece: Sendable, Hashable {
        case year, month, day, hour, minute, second, fraction, monthName, zone, epochSeconds
        case literal(UInt8)
        case space
    }

    let pieces: [Piece]
    public let description: String

    /// Why a pattern is refused.
    public struct Problem: Error, Equatable { public let message: String }

    public init(_ text: String) throws(Problem) {
        var pieces: [Piece] = []
        var percent = false
        for b in text.utf8 {
            if !percent {
                if b == UInt8(ascii: "%") { percent = true } else { pieces.append(b == 0x20 ? .space : .literal(b)) }
                continue
            }
            percent = false
            switch b {
            case UInt8(ascii: "Y"): pieces.append(.year)
            case UInt8(ascii: "m"): pieces.append(.month)
            case UInt8(ascii: "d"), UInt8(ascii: "e"): pieces.append(.day)
            case UInt8(ascii: "H"): pieces.append(.hour)
            case UInt8(ascii: "M"): pieces.append(.minute)
            case UInt8(ascii: "S"): pieces.append(.second)
            case UInt8(ascii: "f"): pieces.append(.fraction)
            case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "h"): pieces.append(.monthName)
            case UInt8(ascii: "z"), UInt8(ascii: "Z"): pieces.append(.zone)
            case UInt8(ascii: "s"): pieces.append(.epochSeconds)
            case UInt8(ascii: "T"): pieces += [.hour, .literal(UInt8(ascii: ":")), .minute, .literal(UInt8(ascii: ":")), .second]
            case UInt8(ascii: "F"): pieces += [.year, .literal(UInt8(ascii: "-")), .month, .literal(UInt8(ascii: "-")), .day]
            case UInt8(ascii: "%"): pieces.append(.literal(b))
            default:
                throw Problem(message: "'%\(Character(Unicode.Scalar(b)))' is not supported; use %Y %m %d %e %H %M %S %f %b %B %z %Z %T %F %s %%")
            }
        }
        if percent { throw Problem(message: "ends with a lone '%'") }
        if !pieces.contains(.epochSeconds) && !(pieces.contains(.day) && pieces.contains(.hour)) {
            throw Problem(message: "needs at least a day (%d) and an hour (%H), or %s")
        }
        self.pieces = pieces
        description = text
    }

    static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// Nanoseconds since the epoch, or nil when `s` does not fit the pattern or names no year.
    public func parse(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var year: Int?, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanos: Int64 = 0, zone = 0, epoch: Int64?
        func number(_ maxDigits: Int) -> Int? {
            var value = 0, count = 0
            while i < s.count, count < maxDigits, s[i] &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(s[i] - UInt8(ascii: "0"))
                i += 1
                count += 1
            }
            return count > 0 ? value : nil
        }
        for piece in pieces {
            switch piece {
            case .year: guard let v = number(4) else { return nil }; year = v
            case .month: guard let v = number(2), (1...12).contains(v) else { return nil }; month = v
            case .day:
                if i < s.count, s[i] == 0x20 { i += 1 }  // %e pads with a space
                guard let v = number(2), (1...31).contains(v) else { return nil }; day = v
            case .hour: guard let v = number(2), v < 24 else { return nil }; hour = v
            case .minute: guard let v = number(2), v < 60 else { return nil }; minute = v
            case .second: guard let v = number(2), v <= 60 else { return nil }; second = v
            case .fraction:
                var scale: Int64 = 100_000_000
                let start = i
                while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
                    nanos += Int64(s[i] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            case .monthName:
                guard i + 3 <= s.count else { return nil }
                let three = [s[i] | 0x20, s[i + 1] | 0x20, s[i + 2] | 0x20]
                guard let index = Self.months.firstIndex(of: three) else { return nil }
                month = index + 1
                i += 3
                while i < s.count, (s[i] | 0x20) &- UInt8(ascii: "a") < 26 { i += 1 }  // the full name
            case .zone:
                guard i < s.count else { return nil }
                if s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z") {
                    i += 1
                } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                    let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard i + 2 <= s.count, let h = number(2) else { return nil }
                    if i < s.count, s[i] == UInt8(ascii: ":") { i += 1 }
                    guard let m = number(2) else { return nil }
                    zone = sign * (h * 3600 + m * 60)
                } else if i + 3 <= s.count, s[i] == UInt8(ascii: "U"), s[i + 1] == UInt8(ascii: "T"), s[i + 2] == UInt8(ascii: "C") {
                    i += 3
                } else if i + 3 <= s.count, s[i] == UInt8(ascii: "G"), s[i + 1] == UInt8(ascii: "M"), s[i + 2] == UInt8(ascii: "T") {
                    i += 3
                } else {
                    return nil
                }
            case .epochSeconds:
                guard let v = number(12) else { return nil }
                epoch = Int64(v)
            case .literal(let b):
                guard i < s.count, s[i] == b else { return nil }
                i += 1
            case .space:
                guard i < s.count, s[i] == 0x20 else { return nil }
                while i < s.count, s[i] == 0x20 { i += 1 }
            }
        }
        guard i == s.count else { return nil }
        if let epoch { return TimestampParser.instant(seconds: epoch, nanos: nanos) }
        guard let year else { return nil }
        let days = TimestampParser.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - zone)
        return TimestampParser.instant(seconds: seconds, nanos: nanos)
    }
}
