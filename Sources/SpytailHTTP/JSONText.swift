import SpytailCore

/// A small JSON writer for the API's answers (records themselves come ready from the jsonl formatter).
struct JSONText {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes += Array(text.utf8) }
    mutating func raw(_ part: ArraySlice<UInt8>) { bytes += part }

    mutating func string(_ text: String) {
        let buffer = OutputBuffer(capacity: text.utf8.count * 2 + 8)
        buffer.appendJSONString(text)
        bytes += buffer.array
    }

    mutating func number(_ value: Int64) { raw(String(value)) }
    mutating func number(_ value: Double) { raw(value.isFinite ? String(value) : "null") }

    /// `{"k": v, …}` with each value written by `body`.
    mutating func object(_ body: (inout ObjectWriter) -> Void) {
        raw("{")
        var writer = ObjectWriter(json: self)
        body(&writer)
        self = writer.json
        raw("}")
    }

    mutating func array<S: Sequence>(_ items: S, _ body: (inout JSONText, S.Element) -> Void) {
        raw("[")
        var first = true
        for item in items {
            if !first { raw(",") }
            first = false
            body(&self, item)
        }
        raw("]")
    }

    struct ObjectWriter {
        var json: JSONText
        var first = true

        mutating func key(_ name: String) {
            if !first { json.raw(",") }
            first = false
            json.string(name)
            json.raw(":")
        }

        mutating func field(_ name: String, _ text: String?) {
            key(name)
            if let text { json.string(text) } else { json.raw("null") }
        }

        mutating func field(_ name: String, _ value: Int64) {
            key(name)
            json.number(value)
        }

        mutating func field(_ name: String, _ value: Double?) {
            key(name)
            if let value { json.number(value) } else { json.raw("null") }
        }

        mutating func field(_ name: String, _ write: (inout JSONText) -> Void) {
            key(name)
            write(&json)
        }
    }
}

extension JSONText {
    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var json = JSONText()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
