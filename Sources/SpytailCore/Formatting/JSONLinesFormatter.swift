/// One JSON object per line:
/// `{"id","timestamp","category","tags","message","detail","fields","source":{"path","offset"}[,"truncated"]}`.
/// Written by hand into the output buffer: every constant piece is prepared once.
public struct JSONLinesFormatter: EntryFormatter {
    /// `,"category":"error","tags":[` for each category.
    let categoryPieces: [[UInt8]]
    /// `"tca"` for each tag.
    let tagNames: [[UInt8]]
    /// `"level":` for each field.
    let fieldKeys: [[UInt8]]

    public init(vocabulary: Vocabulary) {
        func json(_ s: String) -> [UInt8] {
            let b = OutputBuffer(capacity: 64)
            b.appendJSONString(s)
            return b.array
        }
        categoryPieces = vocabulary.categories.map { Array(",\"category\":".utf8) + json($0.name) + Array(",\"tags\":[".utf8) }
        tagNames = vocabulary.tags.map { json($0.name) }
        fieldKeys = vocabulary.fieldNames.map { json($0) + [UInt8(ascii: ":")] }
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        out.append(Self.idKey)
        out.append(hex: entry.file.fingerprint.value)
        out.append(UInt8(ascii: "-"))
        out.append(decimal: entry.offset)
        out.append(Self.timestampKey)
        if let timestamp = entry.timestamp {
            out.appendJSONString(UnsafeBufferPointer(rebasing: text[timestamp]))
        } else {
            out.append(Self.null)
        }
        out.append(categoryPieces[entry.category])
        if !entry.tags.isEmpty { appendTags(entry.tags, out) }
        out.append(Self.messageKey)
        out.appendJSONEscaped(UnsafeBufferPointer(rebasing: text[entry.message]))
        out.append(Self.detailKey)
        if let detail = entry.detail {
            out.appendJSONString(UnsafeBufferPointer(rebasing: text[detail]))
        } else {
            out.append(Self.null)
        }
        out.append(Self.fieldsKey)
        for (i, field) in entry.fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(fieldKeys[field.name])
            out.appendJSONString(UnsafeBufferPointer(rebasing: text[field.range]))
        }
        out.append(Self.sourceKey)
        out.append(entry.file.escapedPath)
        out.append(Self.offsetKey)
        out.append(decimal: entry.offset)
        out.append(entry.truncated ? Self.truncatedEnd : Self.end)
    }

    private func appendTags(_ tags: TagSet, _ out: OutputBuffer) {
        var bits = tags.bits
        var first = true
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(tagNames[index])
            first = false
        }
    }

    static let idKey = Array("{\"id\":\"".utf8)
    static let timestampKey = Array("\",\"timestamp\":".utf8)
    static let null = Array("null".utf8)
    static let messageKey = Array("],\"message\":\"".utf8)
    static let detailKey = Array("\",\"detail\":".utf8)
    static let fieldsKey = Array(",\"fields\":{".utf8)
    static let sourceKey = Array("},\"source\":{\"path\":\"".utf8)
    static let offsetKey = Array("\",\"offset\":".utf8)
    static let end = Array("}}\n".utf8)
    static let truncatedEnd = Array("},\"truncated\":true}\n".utf8)
}
