/// One JSON object per line:
/// `{"id","timestamp","category","tags","message","detail","fields","source":{"path","offset"}[,"truncated"]}`.
/// Written by hand through one `ByteCursor` per record: every constant piece is prepared once, and the
/// room a record can need at most is reserved up front.
public struct JSONLinesFormatter: EntryFormatter, Equatable {
    /// `,"category":"error","tags":[` for each category.
    let categoryPieces: [[UInt8]]
    /// `"tca"` for each tag.
    let tagNames: [[UInt8]]
    /// `"level":` for each field.
    let fieldKeys: [[UInt8]]
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
        fixedRoom = 200 + (categoryPieces.map(\.count).max() ?? 0) + tagNames.reduce(0) { $0 + $1.count + 1 }
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        var room = fixedRoom + entry.file.escapedPath.count
        room += ByteCursor.jsonRoom((entry.timestamp?.count ?? 0) + entry.message.count + (entry.detail?.count ?? 0))
        for field in entry.fields { room += fieldKeys[field.name].count + 3 + ByteCursor.jsonRoom(field.range.count) }
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
        c.append(",\"fields\":{")
        for (i, field) in entry.fields.enumerated() {
            if i > 0 { c.append(UInt8(ascii: ",")) }
            c.append(fieldKeys[field.name])
            c.appendJSONString(UnsafeBufferPointer(rebasing: text[field.range]))
        }
        c.append("},\"source\":{\"path\":\"")
        c.append(entry.file.escapedPath)
        c.append("\",\"offset\":")
        c.append(decimal: entry.offset)
        c.append(entry.truncated ? "},\"truncated\":true}\n" : "}}\n")
    }
}
