/// An entry's fields as flat `key=value` pairs for logfmt and text: nested objects and arrays are walked
/// and their keys joined with dots (`http.status=500`, `tags.0=a`), the same paths conditions use; strings
/// are decoded; numbers, booleans and null are written as in JSON.
public enum FlatFields {
    /// Calls `pair` with each leaf's key (`prefix` + path) and value text, in order. An empty object or
    /// array is one pair whose value is `{}` or `[]`.
    public static func forEach(_ field: FieldValue, in text: UnsafeBufferPointer<UInt8>, names: [[UInt8]],
                               _ pair: (_ key: [UInt8], _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        let key = field.withKey(in: text, names: names) { Array($0) }
        walk(field, key, text, depth: 0, pair)
    }

    /// Nesting deeper than this is written as its JSON text under the key reached.
    static let maxDepth = 32

    private static func walk(_ field: FieldValue, _ key: [UInt8], _ text: UnsafeBufferPointer<UInt8>, depth: Int,
                             _ pair: (_ key: [UInt8], _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        guard field.kind == .object || field.kind == .array, depth < maxDepth else {
            field.withText(in: text) { pair(key, $0) }
            return
        }
        var index = 0
        JSONWalker.forEach(in: text, field.range) { member in
            var path = key
            path.append(UInt8(ascii: "."))
            if field.kind == .object {
                member.withKey(in: text, names: []) { path.append(contentsOf: $0) }
            } else {
                path.append(contentsOf: String(index).utf8)
            }
            index += 1
            walk(member, path, text, depth: depth + 1, pair)
            return true
        }
        if index == 0 { pair(key, UnsafeBufferPointer(rebasing: text[field.range])) }
    }
}
