import Testing
@testable import SpytailCore
import SpytailLogGen

/// The JSON line scanner's two halves accept exactly the same lines and record the same members: the fast
/// structural pass (`CJSONScan`, with each instruction set this CPU has) and the exact scanner that names a
/// refused line's problem. Over generated app lines, hand-picked edge cases and random mutations of both
/// (`JSONDifferentialTests.lines`), bytes that land on the pass's 64-byte block edges, and lines long enough
/// to leave its window of backslash blocks.
struct JSONScannerAgreementTests {
    static var isas: [Int32] { JSONLineScanner.instructionSets.map(\.isa) }

    /// Every byte that matters to the pass put at each offset around the block edges (63, 64, 127, 128).
    static func edgeLines() -> [[UInt8]] {
        let pieces = [#"\""#, #"\\"#, #"\\\""#, #"\u00e9"#, #"\u12G4"#, #"\x"#, "\"", "é", "\t", #"\/"#]
        var lines: [[UInt8]] = []
        for pad in 50..<140 {
            let filler = String(repeating: "x", count: pad)
            for piece in pieces {
                lines.append(Array(#"{"a":"\#(filler)\#(piece)","b":1}"#.utf8))
                lines.append(Array(#"{"\#(filler)\#(piece)":[1,{"c":"\#(piece)"}]}"#.utf8))
            }
            lines.append(Array(#"{"a":\#(String(repeating: "1", count: pad))}"#.utf8))
            lines.append(Array(#"{"a":\#(String(repeating: "1", count: pad))x}"#.utf8))
            lines.append(Array(#"{"a":"\#(filler)"} "#.utf8) + [0x00])
            lines.append(Array(#"{"a":"\#(filler)"#.utf8))
            lines.append(Array(#"{"a":\#(String(repeating: " ", count: pad))true}"#.utf8))
            lines.append(Array(#"{"a":\#(String(repeating: " ", count: pad))tru e}"#.utf8))
        }
        return lines
    }

    /// Lines of many kilobytes: strings with and without escapes far from where the line ends.
    static func longLines() -> [[UInt8]] {
        var random = SplitMix64(seed: 5)
        return (0..<40).map { k in
            var line = "{"
            for m in 0..<(50 + random.below(200)) {
                let escaped = random.below(4) == 0 ? #"\"q\"\\"# : ""
                line += #""k\#(m)":"\#(String(repeating: "v", count: random.below(300)))\#(escaped)","#
            }
            line += k % 3 == 0 ? #""end":[1,2,{"x":"\u00e9"}]}"# : #""end":"\q"}"#
            return Array(line.utf8)
        }
    }

    static func exact(_ line: [UInt8]) -> (fields: [FieldValue], problem: ParseProblem?) {
        var scanner = JSONLineScanner()
        var fields: [FieldValue] = []
        let problem: ParseProblem? = line.withUnsafeBufferPointer { p in
            do throws(ParseProblem) {
                try scanner.scanObjectExactly(p.baseAddress ?? UnsafePointer(bitPattern: 1)!, p.count, into: &fields)
                return nil
            } catch { return error }
        }
        return (fields, problem)
    }

    static func fast(_ line: [UInt8], isa: Int32) -> [FieldValue]? {
        var scanner = JSONLineScanner()
        var fields: [FieldValue] = []
        let accepted = line.withUnsafeBufferPointer { p in
            scanner.scanFast(p.baseAddress ?? UnsafePointer(bitPattern: 1)!, p.count, into: &fields, isa: isa)
        }
        return accepted ? fields : nil
    }

    @Test(arguments: isas)
    func bothScannersGiveTheSameVerdictAndMembers(isa: Int32) {
        let lines = JSONDifferentialTests.lines() + Self.edgeLines() + Self.longLines()
        var accepted = 0, disagreements: [String] = []
        for line in lines {
            let exact = Self.exact(line)
            let fast = Self.fast(line, isa: isa)
            if exact.problem == nil { accepted += 1 }
            let agree = exact.problem == nil ? fast == exact.fields : fast == nil
            if !agree, disagreements.count < 5 {
                disagreements.append("\(String(decoding: line.prefix(200), as: UTF8.self)): exact \(exact.problem.map(\.description) ?? "accepts"), fast \(fast == nil ? "refuses" : "accepts")")
            }
        }
        #expect(disagreements.isEmpty, "isa \(isa): \(disagreements.joined(separator: "\n"))")
        // Both kinds of line are there in numbers.
        #expect(accepted > 1000 && lines.count - accepted > 1000, "\(accepted) of \(lines.count) accepted")
    }

    /// A member looked up inside a nested object (`http.status`): in C, and key by key decoded in Swift.
    @Test func aNestedMemberIsFoundAlikeInCAndInSwift() {
        let nested = [
            #"{"o":{"a":1,"b":"x\"}","c":{"d":[1,{"e":"}"}]},"a":2}}"#, #"{"o":{}}"#, #"{"o":{ "a" : "va" , "b" : null }}"#,
            #"{"o":{"a":1,"b":2}}"#, #"{"o":{"a":"é\","a b":true,"":3}}"#, #"{"o":{"long":"\#(String(repeating: "q", count: 70))"}"}}"#,
        ].map { Array($0.utf8) }
        var checked = 0
        for line in JSONDifferentialTests.lines() + nested {
            let (fields, problem) = Self.exact(line)
            guard problem == nil else { continue }
            line.withUnsafeBufferPointer { text in
                for object in fields where object.kind == .object {
                    var keys: [[UInt8]] = [Array("no such key".utf8), []]
                    JSONWalker.forEach(in: text, object.range) { member in
                        keys.append(JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: text[member.key])))
                        return true
                    }
                    for key in keys {
                        key.withUnsafeBufferPointer { key in
                            let inC = JSONWalker.member(in: text, object.range, named: key)
                            let inSwift = JSONWalker.memberDecodingKeys(in: text, object.range, named: key)
                            #expect(inC == inSwift, "\(String(decoding: line, as: UTF8.self)) key \(String(decoding: key, as: UTF8.self))")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 5000)
    }

    @Test func aLineWithMoreMembersThanTheRoomIsRescannedWithMore() {
        let line = Array(("{" + (0..<500).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
        for isa in Self.isas {
            #expect(Self.fast(line, isa: isa)?.count == 500)
        }
        #expect(JSONLineScannerTests.scan(line).fields.count == 500)
    }
}
