/// logfmt: `id=… time=… category=error tags=tca,db msg="…" detail="…" level=ERROR path=… [source=…] offset=…`.
/// Values with spaces, quotes, `=` or non-printing bytes are quoted and escaped like JSON strings; nested
/// fields are flattened with dots (`http.status=500`); a line that did not parse adds `parse_error="…"`.
public struct LogfmtFormatter: EntryFormatter {
    let categoryNames: [[UInt8]]
    let tagNames: [[UInt8]]
    let fieldKeys: [[UInt8]]
    let fieldNames: [[UInt8]]
    let sourceNames: [[UInt8]]

    public init(vocabulary: Vocabulary) {
        categoryNames = vocabulary.categories.map { Array($0.name.utf8) }
        tagNames = vocabulary.tags.map { Array($0.name.utf8) }
        fieldKeys = vocabulary.fieldNames.map { Array(" \($0)=".utf8) }
        fieldNames = vocabulary.fieldNames.map { Array($0.utf8) }
        sourceNames = vocabulary.sources.map { Array(" source=\($0)".utf8) }
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        out.append(Array("id=".utf8))
        out.append(hex: entry.file.idFingerprint.value)
        out.append(UInt8(ascii: "-"))
        out.append(decimal: entry.offset)
        if let timestamp = entry.timestamp {
            out.append(Array(" time=".utf8))
            appendValue(UnsafeBufferPointer(rebasing: text[timestamp]), out)
        }
        out.append(Array(" category=".utf8))
        categoryNames[entry.category].withUnsafeBufferPointer { appendValue($0, out) }
        if !entry.tags.isEmpty {
            out.append(Array(" tags=".utf8))
            let joined = Array(entry.tags.indices.map { tagNames[$0] }.joined(separator: [UInt8(ascii: ",")]))
            joined.withUnsafeBufferPointer { appendValue($0, out) }
        }
        out.append(Array(" msg=".utf8))
        appendValue(UnsafeBufferPointer(rebasing: text[entry.message]), out)
        if let detail = entry.detail {
            out.append(Array(" detail=".utf8))
            appendValue(UnsafeBufferPointer(rebasing: text[detail]), out)
        }
        for field in entry.fields {
            if field.name != FieldValue.keyed {
                out.append(fieldKeys[field.name])
                appendValue(UnsafeBufferPointer(rebasing: text[field.range]), out)
                continue
            }
            FlatFields.forEach(field, in: text, names: fieldNames) { key, value in
                out.append(UInt8(ascii: " "))
                appendKey(key, out)
                out.append(UInt8(ascii: "="))
                appendValue(value, out)
            }
        }
        out.append(Array(" path=".utf8))
        var path = entry.file.path
        path.withUTF8 { appendValue($0, out) }
        if let name = sourceNames.indices.contains(entry.file.source) ? sourceNames[entry.file.source] : nil { out.append(name) }
        out.append(Array(" offset=".utf8))
        out.append(decimal: entry.offset)
        if entry.truncated { out.append(Array(" truncated=true".utf8)) }
        if let problem = entry.parseError {
            out.append(Array(" parse_error=".utf8))
            Array(problem.description.utf8).withUnsafeBufferPointer { appendValue($0, out) }
        }
        out.append(0x0A)
    }

    /// A key from a line: bytes that would break the pair (space, `=`, `"`, controls) become `_`.
    func appendKey(_ key: [UInt8], _ out: OutputBuffer) {
        out.append(key.map { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == 0x7F ? UInt8(ascii: "_") : $0 })
    }

    func appendValue(_ value: UnsafeBufferPointer<UInt8>, _ out: OutputBuffer) {
        let plain = !value.isEmpty && value.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "\\") }
        if plain { out.append(value) } else { out.appendJSONString(value) }
    }
}
