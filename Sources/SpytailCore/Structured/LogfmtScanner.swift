/// Reads a logfmt line (`level=info msg="a \"quoted\" value" took=12ms cached`), as Go's logfmt and
/// Heroku write it, into fields with ranges into the line. A bare key is a flag (`true`); `key=` is an
/// empty value; a quoted value may hold `\"`, `\\` and JSON's other escapes. A line without a single
/// `key=value` pair (a raw stack trace line) is refused, and so is an unterminated quote.
public enum LogfmtScanner {
    /// A pair as read: the quoted value's content and whether it holds an escape (the caller decodes it).
    public struct Pair {
        public var key: Range<Int>
        public var value: Range<Int>
        public var kind: FieldValue.Kind
        public var escaped: Bool
    }

    /// Calls `pair` for each pair of `line[0..<n]` in order.
    public static func scan(_ p: UnsafePointer<UInt8>, _ n: Int, _ pair: (Pair) -> Void) throws(ParseProblem) {
        var i = 0, sawValue = false
        while true {
            while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0D { i += 1 }
            guard i < n else { break }
            let keyStart = i
            while i < n, p[i] > 0x20, p[i] != UInt8(ascii: "="), p[i] != UInt8(ascii: "\"") { i += 1 }
            guard i > keyStart else { throw ParseProblem(.logfmt, .unexpectedByte(p[i]), at: i) }
            let key = keyStart..<i
            guard i < n, p[i] == UInt8(ascii: "=") else {
                if i < n, p[i] == UInt8(ascii: "\"") { throw ParseProblem(.logfmt, .unexpectedByte(p[i]), at: i) }
                pair(Pair(key: key, value: i..<i, kind: .true, escaped: false))
                continue
            }
            i += 1
            sawValue = true
            if i < n, p[i] == UInt8(ascii: "\"") {
                let open = i
                i += 1
                let start = i
                var escaped = false
                while i < n, p[i] != UInt8(ascii: "\"") {
                    if p[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
                    i += 1
                }
                guard i < n else { throw ParseProblem(.logfmt, .unterminatedQuote, at: open) }
                pair(Pair(key: key, value: start..<i, kind: .text, escaped: escaped))
                i += 1
            } else {
                let start = i
                while i < n, p[i] > 0x20 { i += 1 }
                pair(Pair(key: key, value: start..<i, kind: .text, escaped: false))
            }
        }
        if !sawValue { throw ParseProblem(.logfmt, .noPairs, at: 0) }
    }
}
