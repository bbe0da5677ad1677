/// Numbers read from bytes as they were written: a JSON number, or a text field that is wholly one.
public enum NumberText {
    /// The value of `bytes` when they are a decimal number (`-12`, `0.25`, `1e3`, `+7`), else nil.
    /// Integers of up to 18 digits are read exactly without allocation.
    public static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count <= 400 else { return nil }
        var i = 0, negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var value: Int64 = 0, digits = 0
        while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10, digits < 18 {
            value = value * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
            i += 1
            digits += 1
        }
        if i == bytes.count {
            guard digits > 0 else { return nil }
            return Double(negative ? -value : value)
        }
        // Fractions, exponents, long integers: the standard library's reader, after a grammar check.
        guard bytes.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e")
                                 || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
