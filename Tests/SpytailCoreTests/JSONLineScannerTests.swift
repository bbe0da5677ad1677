import Testing
@testable import SpytailCore

/// The JSON line scanner: what it accepts, what it refuses and where, and the hostile inputs named in the docs.
struct JSONLineScannerTests {
    static func scan(_ line: String) -> (fields: [FieldValue], problem: ParseProblem?) {
        scan(Array(line.utf8))
    }

    static func scan(_ bytes: [UInt8]) -> (fields: [FieldValue], problem: ParseProblem?) {
        var scanner = JSONLineScanner()
        var fields: [FieldValue] = []
        let problem: ParseProblem? = bytes.withUnsafeBufferPointer { p in
            do throws(ParseProblem) {
                try scanner.scanObject(p.baseAddress!, p.count, into: &fields)
                return nil
            } catch { return error }
        }
        return (fields, problem)
    }

    static let valid = [
        #"{}"#, #"  { "a" : 1 }  "#, #"{"a":-0.5e+10,"b":[1,[2,{}],"x"],"c":{"d":null,"e":true,"f":false}}"#,
        #"{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#, #"{"n":1e400}"#, #"{"a":1,"a":2}"#, #"{"lone":"\ud800"}"#,
        "{\"ü\":\"日本\"}\r", #"{"z":0,"y":[]}"#,
    ]

    @Test(arguments: valid)
    func accepts(_ line: String) {
        #expect(Self.scan(line).problem == nil, "\(line)")
    }

    static let invalid: [(String, ParseProblem.Reason, Int)] = [
        ("", .unexpectedEnd, 0), ("[1]", .notAnObject, 0), (#""x""#, .notAnObject, 0), ("{", .unexpectedEnd, 1),
        (#"{"a"}"#, .unexpectedByte(UInt8(ascii: "}")), 4), (#"{"a":}"#, .unexpectedByte(UInt8(ascii: "}")), 5),
        (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}")), 7), (#"{"a":01}"#, .unexpectedByte(UInt8(ascii: "1")), 6),
        (#"{"a":1.}"#, .badNumber, 5), (#"{"a":-}"#, .badNumber, 5), (#"{"a":tru}"#, .unexpectedByte(UInt8(ascii: "}")), 8),
        (#"{"a":"\x"}"#, .badEscape, 6), (#"{"a":"\u12g4"}"#, .badEscape, 6), (#"{"a":1} x"#, .trailingBytes, 8),
        ("{\"a\":\"x\ty\"}", .controlCharacter, 7), ("{\"a\":\"\0\"}", .controlCharacter, 6), (#"{"a":NaN}"#, .unexpectedByte(UInt8(ascii: "N")), 5),
        (#"{"a":[1,2}"#, .unexpectedByte(UInt8(ascii: "}")), 9), (#"{'a':1}"#, .unexpectedByte(UInt8(ascii: "'")), 1),
        (#"{"a":"unterminated"#, .unexpectedEnd, 18),
    ]

    @Test(arguments: invalid.map { ($0.0, $0.1, $0.2) })
    func refusesAndSaysWhere(_ line: String, _ reason: ParseProblem.Reason, _ offset: Int) {
        let problem = Self.scan(line).problem
        #expect(problem == ParseProblem(.json, reason, at: offset), "\(line): \(problem.map(\.description) ?? "accepted")")
    }

    @Test func invalidUTF8InAStringIsRefusedAtItsByte() {
        let bytes = Array(#"{"a":"ok"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(Self.scan(bytes).problem == ParseProblem(.json, .invalidUTF8, at: 8))
        let overlong = Array(#"{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        #expect(Self.scan(overlong).problem?.reason == .invalidUTF8)
    }

    @Test func nesting100000DeepIsRefusedWithoutRecursion() {
        let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(Self.scan(deep).problem == ParseProblem(.json, .tooDeep, at: 5 + JSONLineScanner.maxDepth - 1))
        let allowed = "{\"a\":" + String(repeating: "[", count: JSONLineScanner.maxDepth - 1) + String(repeating: "]", count: JSONLineScanner.maxDepth - 1) + "}"
        #expect(Self.scan(allowed).problem == nil)
    }

    @Test func membersAreRecordedAsWrittenWithTheirKinds() throws {
        let line = #"{"s":"a\"b","n":-1.5e3,"t":true,"f":false,"z":null,"o":{"k":[1]},"a":[],"s":"last"}"#
        let (fields, problem) = Self.scan(line)
        #expect(problem == nil)
        let bytes = Array(line.utf8)
        func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
        #expect(fields.map { text($0.key) } == ["s", "n", "t", "f", "z", "o", "a", "s"])
        #expect(fields.map(\.kind) == [.string, .number, .true, .false, .null, .object, .array, .string])
        #expect(fields.map { text($0.range) } == [#"a\"b"#, "-1.5e3", "true", "false", "null", #"{"k":[1]}"#, "[]", "last"])
        #expect(fields.map(\.escaped) == [true, false, false, false, false, false, false, false])
    }

    @Test func aTenMegabyteLineIsScannedWhole() {
        let big = "{\"m\":\"" + String(repeating: "abcdefghij", count: 1_000_000) + "\",\"n\":1}"
        let (fields, problem) = Self.scan(big)
        #expect(problem == nil)
        #expect(fields.count == 2 && fields[0].range.count == 10_000_000)
    }

    @Test func stringsDecodeEscapesAndReplaceLoneSurrogates() {
        func decode(_ s: String) -> String {
            Array(s.utf8).withUnsafeBufferPointer { String(decoding: JSONStringDecoder.decode($0), as: UTF8.self) }
        }
        #expect(decode(#"a\"b\\c\/d\n\t\u00e9\ud83d\ude00"#) == "a\"b\\c/d\n\té😀")
        #expect(decode(#"x\ud800y"#) == "x\u{FFFD}y")
        #expect(decode(#"\udc00"#) == "\u{FFFD}")
    }
}
