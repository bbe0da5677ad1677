/// One `JSONEachRow` row per entry (the `clickhouse` output with `"insertFormat": "JSONEachRow"`), for `ClickHouseTable`'s columns:
/// `{"id","timestamp","time","category","tags","message","detail","fields","path","offset","host"}`.
/// `time` is whole seconds since the epoch (null when the timestamp could not be read); `fields` is the
/// entry's fields as JSON text. Like `JSONLinesFormatter`, written by hand into one reserved run of bytes.
public struct ClickHouseJSONEachRowFormatter: EntryFormatter {
    let categoryPieces: [[UInt8]]
    let tagNames: [[UInt8]]
    /// `\"level\":` for each field: keys inside the JSON text of `fields`, escaped twice.
    let fieldKeys: [[UInt8]]
    /// `"level":` for each field (the fields' own JSON, before it is escaped into the column's string).
    let plainKeys: [[UInt8]]
    /// `,"host":"…"}` and the newline.
    let tail: [UInt8]
    let fixedRoom: Int

    public init(vocabulary: Vocabulary, host: String) {
        func json(_ s: String) -> [UInt8] {
            let b = OutputBuffer(capacity: 64)
            b.appendJSONString(s)
            return b.array
        }
        categoryPieces = vocabulary.categories.map { Array(",\"category\":".utf8) + json($0.name) + Array(",\"tags\":[".utf8) }
        tagNames = vocabulary.tags.map { json($0.name) }
        fieldKeys = vocabulary.fieldNames.map { name in
            let inner = json(name)  // "name" as JSON, then that text as a JSON string's content
            let b = OutputBuffer(capacity: 64)
            b.appendJSONString(String(decoding: inner, as: UTF8.self))
            return Array(b.array.dropFirst().dropLast()) + [UInt8(ascii: ":")]
        }
        plainKeys = vocabulary.fieldNames.map { json($0) + [UInt8(ascii: ":")] }
        tail = Array(",\"host\":".utf8) + json(host) + Array("}\n".utf8)
        fixedRoom = 240 + tail.count + (categoryPieces.map(\.count).max() ?? 0) + tagNames.reduce(0) { $0 + $1.count + 1 }
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        var room = fixedRoom + entry.file.escapedPath.count
        room += ByteCursor.jsonRoom((entry.timestamp?.count ?? 0) + entry.message.count + (entry.detail?.count ?? 0))
        // A field's value is escaped twice (JSON text inside a JSON string): at most 6 × 2 bytes per byte.
        for field in entry.fields where field.name != FieldValue.keyed {
            room += fieldKeys[field.name].count + 8 + 2 * ByteCursor.jsonRoom(field.range.count)
        }
        if !ClickHouseFields.arePlain(entry.fields) { room += 2 * ByteCursor.jsonRoom(ByteCursor.fieldsRoom(entry.fields, keys: plainKeys)) }
        out.write(reserving: room) { c in write(entry, text, &c) }
    }

    private func write(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ c: inout ByteCursor) {
        c.append("{\"id\":\"")
        c.appendID(of: entry)
        c.append("\",\"timestamp\":")
        c.appendJSONString(entry.timestamp, in: text)
        c.append(",\"time\":")
        if let time = entry.time, time >= 0 {
            c.append(decimal: time / 1_000_000_000)
        } else {
            c.append("null")  // DateTime holds no time before 1970
        }
        c.append(categoryPieces[entry.category])
        c.append(tags: entry.tags, names: tagNames)
        c.append("],\"message\":\"")
        c.appendJSONEscaped(UnsafeBufferPointer(rebasing: text[entry.message]))
        c.append("\",\"detail\":")
        c.appendJSONString(entry.detail, in: text)
        if !ClickHouseFields.arePlain(entry.fields) {
            c.append(",\"fields\":\"")
            ClickHouseFields.json(entry.fields, text, keys: plainKeys).withUnsafeBufferPointer { c.appendJSONEscaped($0) }
            c.append("\",\"path\":\"")
        } else {
            c.append(",\"fields\":\"{")
            appendPlainFields(entry, text, &c)
            c.append("}\",\"path\":\"")
        }
        c.append(entry.file.escapedPath)
        c.append("\",\"offset\":")
        c.append(decimal: entry.offset)
        c.append(tail)
    }

    private func appendPlainFields(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ c: inout ByteCursor) {
        for (i, field) in entry.fields.enumerated() {
            if i > 0 { c.append(UInt8(ascii: ",")) }
            c.append(fieldKeys[field.name])
            c.append("\\\"")
            c.appendJSONEscapedTwice(UnsafeBufferPointer(rebasing: text[field.range]))
            c.append("\\\"")
        }
    }
}
