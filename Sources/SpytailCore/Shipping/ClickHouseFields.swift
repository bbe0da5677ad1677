/// The `fields` column's JSON text. A regex parser's plain groups are written straight into the row's
/// encoding (the common case, no copy); fields with types or keys of their own (a JSON or logfmt line) are
/// written as typed JSON first (`{"http":{"status":500},"user":"ann"}`, numbers, booleans, null and nested
/// values as the line had them) and that text is then escaped for the row, so
/// `JSONExtractInt(fields, 'http', 'status')` reads them.
enum ClickHouseFields {
    static func arePlain(_ fields: [FieldValue]) -> Bool {
        fields.allSatisfy { $0.name != FieldValue.keyed && $0.kind == .text }
    }

    static func json(_ fields: [FieldValue], _ text: UnsafeBufferPointer<UInt8>, keys: [[UInt8]]) -> [UInt8] {
        let buffer = OutputBuffer(capacity: 256)
        buffer.write(reserving: ByteCursor.fieldsRoom(fields, keys: keys)) { $0.appendFields(fields, in: text, keys: keys) }
        return buffer.array
    }
}
