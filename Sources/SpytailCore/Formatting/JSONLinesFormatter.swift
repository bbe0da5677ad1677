/// One JSON object per line:
/// `{"id","timestamp","category","tags","message","detail","fields","source":{["name",]"path","offset"}[,"truncated"][,"parseError"]}`.
/// Fields keep their types: a JSON line's values are copied as written (numbers, booleans, null, nested
/// objects and arrays), typed regex groups are numbers or booleans, everything else is a string.
/// Written by hand through one `ByteCursor` per record: every constant piece is prepared once, and the
/// room a record can need at most is reserved up front.
public struct JSONLinesFormatter: EntryFormatter, Equatable {
    /// `,"category":"error","tags":[` for each category.
    let categoryPieces: [[UInt8]]
    /// `"tca"` for each tag.
    let tagNames: [[UInt8]]
    /// `"level":` for each field.
    let fieldKeys: [[UInt8]]
    /// `,"source":{"name":"app","path":"` for each source; the last one (no name) for files without a source.
    let sourcePieces: [[UInt8]]
    /// Room for the constant parts, the longest category piece and every tag name with its comma.
    let fixedRoom: Int

    public init(vocabulary: Vocabulary) {
        func json(_ s: String) -> [UInt8] {
            let b = OutputBuffer(capacity: 64)
            b.appendJSONString(s)
            return b.array
        }
        categoryPieces = vocabulary.categories.map { Array(",\"category\":".utf8) + json($0.name) + Array(",\"tags\":[".utf8) }
        tagNames = vocabulary.tags.map { json($0.name) }
        fieldKeys = vocabulary.fieldNames.map { json($0) + [UInt8(ascii: ":")] }
        sourcePieces = vocabulary.sources.map { Array(",\"source\":{\"name\":".utf8) + json($0) + Array(",\"path\":\"".utf8) }
            + [Array(",\"source\":{\"path\":\"".utf8)]
        fixedRoom = 200 + (categoryPieces.map(\.count).max() ?? 0) + tagNames.reduce(0) { $0 + $1.count + 1 }
            + (sourcePieces.map(\.count).max() ?? 0)
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        var room = fixedRoom + entry.file.escapedPath.count
        room += ByteCursor.jsonRoom((entry.timestamp?.count ?? 0) + entry.message.count + (entry.detail?.count ?? 0))
        room += ByteCursor.fieldsRoom(entry.fields, keys: fieldKeys)
        if entry.parseError != nil { room += 200 }
        out.write(reserving: room) { c in write(entry, text, &c) }
    }

    private func write(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ c: inout ByteCursor) {
        c.append("{\"id\":\"")
        c.appendID(of: entry)
        c.append("\",\"timestamp\":")
        c.appendJSONString(entry.timestamp, in: text)
        c.append(categoryPieces[entry.category])
        c.append(tags: entry.tags, names: tagNames)
        c.append("],\"message\":\"")
        c.appendJSONEscaped(UnsafeBufferPointer(rebasing: text[entry.message]))
        c.append("\",\"detail\":")
        c.appendJSONString(entry.detail, in: text)
        c.append(",\"fields\":")
        c.appendFields(entry.fields, in: text, keys: fieldKeys)
        let source = entry.file.source
        c.append(sourcePieces[source >= 0 && source < sourcePieces.count - 1 ? source : sourcePieces.count - 1])
        c.append(entry.file.escapedPath)
        c.append("\",\"offset\":")
        c.append(decimal: entry.offset)
        c.append(UInt8(ascii: "}"))
        if entry.truncated { c.append(",\"truncated\":true") }
        if let problem = entry.parseError {
            c.append(",\"parseError\":")
            var description = problem.description
            description.withUTF8 { c.appendJSONString($0) }
        }
        c.append("}\n")
    }
}

extension ByteCursor {
    /// The room `appendFields` needs at most.
    public static func fieldsRoom(_ fields: [FieldValue], keys: [[UInt8]]) -> Int {
        var room = 2
        for field in fields {
            room += (field.name == FieldValue.keyed ? jsonRoom(field.key.count) + 4 : keys[field.name].count) + 8 + jsonRoom(field.range.count)
        }
        return room
    }

    /// `{"key":value,…}`: the fields as a JSON object, typed. `keys`: `"name":` of each named field.
    public mutating func appendFields(_ fields: [FieldValue], in text: UnsafeBufferPointer<UInt8>, keys: [[UInt8]]) {
        append(UInt8(ascii: "{"))
        for (i, field) in fields.enumerated() {
            if i > 0 { append(UInt8(ascii: ",")) }
            if field.name == FieldValue.keyed { appendJSONKey(of: field, in: text) } else { append(keys[field.name]) }
            appendJSONValue(of: field, in: text)
        }
        append(UInt8(ascii: "}"))
    }

    /// `"key":` of a keyed field: a JSON key copied as written, a logfmt key escaped.
    mutating func appendJSONKey(of field: FieldValue, in text: UnsafeBufferPointer<UInt8>) {
        let key = UnsafeBufferPointer(rebasing: text[field.key])
        append(UInt8(ascii: "\""))
        if field.keyIsJSON { append(key) } else { appendJSONEscaped(key) }
        append("\":")
    }

    /// A field's value as JSON: a JSON value copied as written, raw text as a string, a flag as `true`.
    mutating func appendJSONValue(of field: FieldValue, in text: UnsafeBufferPointer<UInt8>) {
        let value = UnsafeBufferPointer(rebasing: text[field.range])
        switch field.kind {
        case .text: appendJSONString(value)
        case .string:
            append(UInt8(ascii: "\""))
            append(value)
            append(UInt8(ascii: "\""))
        case .true: append("true")
        case .false: append("false")
        case .null: append("null")
        case .number, .object, .array: append(value)
        }
    }
}
