/// One RFC 5424 message per entry, framed by RFC 6587 octet counting (`LEN SP MSG`; the transports that
/// need no framing take it off):
/// `<PRI>1 TIMESTAMP HOSTNAME APP-NAME - - [spytail@32473 id="…" category="…" tags="a,b" path="…" offset="N" level="…"] message`
/// The timestamp is the entry's (microseconds, UTC) or the arrival time (`now`) when it has none; the
/// structured data carries the id, category, tags, source and every field, escaped per RFC 5424 (`"`, `\`
/// and `]` get a backslash); the message keeps its continuation lines after a newline.
public struct SyslogFormatter: EntryFormatter {
    /// The private enterprise number in the SD-ID: 32473 is the one RFC 5612 reserves for documentation.
    public static let sdID = "spytail@32473"

    let priorities: [[UInt8]]
    let header: [UInt8]
    let categoryNames: [[UInt8]]
    let tagNames: [[UInt8]]
    let fieldNames: [[UInt8]]
    let now: @Sendable () -> Int64

    /// `now`: nanoseconds since the epoch, for entries without a timestamp.
    public init(vocabulary: Vocabulary, settings: SyslogOutput, hostname: String, now: @escaping @Sendable () -> Int64) {
        priorities = vocabulary.categories.map { category in
            let severity = settings.severities[category.name] ?? settings.defaultSeverity
            return Array("<\(settings.facility * 8 + severity)>1 ".utf8)
        }
        let host = Self.printable(hostname.isEmpty ? "-" : hostname, max: 255)
        header = Array(" \(host) \(Self.printable(settings.appName, max: 48)) - - [\(Self.sdID) id=\"".utf8)
        categoryNames = vocabulary.categories.map { Self.paramValue(Array($0.name.utf8)) }
        tagNames = vocabulary.tags.map { Self.paramValue(Array($0.name.utf8)) }
        fieldNames = vocabulary.fieldNames.map { Array(Self.printable($0, max: 32).utf8) }
        self.now = now
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        var room = 400 + header.count + 3 * entry.file.escapedPath.count + 4 * entry.text.count
        if entry.fields.contains(where: { $0.name == FieldValue.keyed }) { room += 24 * entry.text.count }  // a leaf: a name cut to 32, its value escaped
        room += tagNames.reduce(0) { $0 + $1.count + 1 } + fieldNames.reduce(0) { $0 + $1.count + 4 }
        let time = entry.time ?? now()
        let start = out.count
        out.write(reserving: room) { c in
            c.append("0000000000 ")  // the length, filled in below (ten digits, then cut to size)
            write(entry, time: time, text, &c)
        }
        out.fixOctetCount(at: start, headerWidth: 11)
    }

    private func write(_ entry: borrowing SpyEntry, time: Int64, _ text: UnsafeBufferPointer<UInt8>, _ c: inout ByteCursor) {
        c.append(priorities[entry.category])
        Self.appendTimestamp(time, &c)
        c.append(header)
        c.appendID(of: entry)
        c.append("\" category=\"")
        c.append(categoryNames[entry.category])
        c.append("\" tags=\"")
        c.append(tags: entry.tags, names: tagNames)
        c.append("\" path=\"")
        Self.appendParamValue(entry.file.path.utf8, &c)
        c.append("\" offset=\"")
        c.append(decimal: entry.offset)
        for field in entry.fields {
            if field.name != FieldValue.keyed {
                c.append("\" ")
                c.append(fieldNames[field.name])
                c.append("=\"")
                Self.appendParamValue(UnsafeBufferPointer(rebasing: text[field.range]), &c)
                continue
            }
            // A JSON or logfmt line's fields, flattened (`http.status`): PARAM-NAMEs are printable ASCII
            // without `=`, space, `]` or `"`, at most 32 characters.
            FlatFields.forEach(field, in: text, names: []) { key, value in
                c.append("\" ")
                c.append(Self.paramName(key))
                c.append("=\"")
                Self.appendParamValue(value, &c)
            }
        }
        c.append("\"] ")
        c.append(UnsafeBufferPointer(rebasing: text[entry.message]))
        if let detail = entry.detail {
            c.append(UInt8(ascii: "\n"))
            c.append(UnsafeBufferPointer(rebasing: text[detail]))
        }
    }

    /// `2026-11-20T10:00:01.123456Z`.
    static func appendTimestamp(_ nanoseconds: Int64, _ c: inout ByteCursor) {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        let micros = (nanoseconds - seconds * 1_000_000_000) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = TimestampParser.civil(fromDays: Int(days))
        let secondOfDay = Int(seconds - days * 86_400)
        func two(_ n: Int) { c.append(UInt8(ascii: "0") + UInt8(n / 10)); c.append(UInt8(ascii: "0") + UInt8(n % 10)) }
        let y = max(0, min(9999, year))
        two(y / 100); two(y % 100)
        c.append(UInt8(ascii: "-")); two(month)
        c.append(UInt8(ascii: "-")); two(day)
        c.append(UInt8(ascii: "T")); two(secondOfDay / 3600)
        c.append(UInt8(ascii: ":")); two(secondOfDay / 60 % 60)
        c.append(UInt8(ascii: ":")); two(secondOfDay % 60)
        c.append(UInt8(ascii: "."))
        var divisor = 100_000
        var rest = Int(micros)
        while divisor > 0 {
            c.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        c.append(UInt8(ascii: "Z"))
    }

    /// A PARAM-VALUE's bytes: `"`, `\` and `]` escaped with a backslash; invalid UTF-8 becomes U+FFFD.
    static func appendParamValue<S: Sequence>(_ bytes: S, _ c: inout ByteCursor) where S.Element == UInt8 {
        let array = Array(bytes)
        var i = 0
        while i < array.count {
            let b = array[i]
            if b >= 0x80 {
                i += array.withUnsafeBufferPointer { c.appendUTF8Sequence($0.baseAddress! + i, available: $0.count - i) }
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == UInt8(ascii: "]") { c.append(UInt8(ascii: "\\")) }
            c.append(b)
            i += 1
        }
    }

    static func paramName(_ key: [UInt8]) -> [UInt8] {
        let cleaned = key.prefix(32).map { (33...126).contains($0) && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: "\"") ? $0 : UInt8(ascii: "_") }
        return cleaned.isEmpty ? [UInt8(ascii: "_")] : cleaned
    }

    static func paramValue(_ bytes: [UInt8]) -> [UInt8] {
        let buffer = OutputBuffer(capacity: 64)
        buffer.write(reserving: 4 * bytes.count + 8) { appendParamValue(bytes, &$0) }
        return buffer.array
    }

    /// A header field: printable US-ASCII only (others become `_`), at most `max` characters, `-` when empty.
    static func printable(_ text: String, max: Int) -> String {
        let cleaned = String(decoding: text.utf8.prefix(max).map { (33...126).contains($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        return cleaned.isEmpty ? "-" : cleaned
    }
}
