import Testing
@testable import SpytailCore

/// One entry cannot grow without end: a continuation line that would take it past
/// `ContinuationRule.maxEntryBytes` starts an entry of its own, in plain logs and in a container runtime's,
/// and every line is still in some entry, in order.
struct EntryLimitTests {
    static let maxLineBytes = 1024
    /// 1 MiB: four lines of 1 KiB are less than the floor.
    static let limit = ContinuationRule.maxEntryBytes(maxLineBytes: maxLineBytes)

    static func continues(_ rule: ContinuationRule, length: Int, entryBytes: Int?) -> Bool {
        let line = [UInt8](repeating: 0x20, count: length)
        return line.withUnsafeBufferPointer { rule.continues(Line(bytes: $0, offset: 0, truncated: false), entryBytes: entryBytes) }
    }

    @Test func aLineJoinsOnlyWhileTheEntryStaysWithinTheLimit() throws {
        #expect(Self.limit == 1 << 20)
        #expect(ContinuationRule.maxEntryBytes(maxLineBytes: 1 << 20) == 4 << 20)
        #expect(ContinuationRule.maxEntryBytes(maxLineBytes: .max) > 0, "no overflow")
        let rule = ContinuationRule(try Regex(#"^\s"#), maxLineBytes: Self.maxLineBytes)
        // The entry, a newline and the line: exactly the limit joins, one byte more does not.
        #expect(Self.continues(rule, length: 99, entryBytes: Self.limit - 100))
        #expect(!Self.continues(rule, length: 100, entryBytes: Self.limit - 100))
        #expect(!Self.continues(rule, length: 99, entryBytes: nil), "no entry open")
        #expect(!Self.continues(ContinuationRule(nil, maxLineBytes: Self.maxLineBytes), length: 1, entryBytes: 0), "no rule")
    }

    /// A head line and then nothing but continuation lines, 100 bytes each with their newline: 2 MB.
    static let continuationLines = 20_000
    static func plainLog() -> [UInt8] {
        var text = Array("2026-11-27T10:00:00Z ERROR a trace without end\n".utf8)
        for i in 0..<continuationLines {
            let frame = "    at frame \(i)"
            text += Array((frame + String(repeating: ".", count: 99 - frame.utf8.count) + "\n").utf8)
        }
        return text
    }

    /// Entries of `text` as `EntryStream` hands them out, pushed in chunks.
    static func entries(_ text: [UInt8], container: ContainerFormat? = nil) -> [(offset: Int64, text: [UInt8])] {
        let file = SourceFile(path: "/var/log/app.log", fingerprint: Fingerprint(value: 3))
        var stream = EntryStream(file: file, maxLineBytes: maxLineBytes, continuation: try! Regex(#"^\s"#), container: container)
        var out: [(offset: Int64, text: [UInt8])] = []
        text.withUnsafeBufferPointer { bytes in
            var at = 0
            while at < bytes.count {
                let next = min(at + 65_536, bytes.count)
                stream.push(UnsafeBufferPointer(rebasing: bytes[at..<next])) { out.append(($0.offset, Array($0.text[..<($0.envelopeStart ?? $0.text.count)]))) }
                at = next
            }
        }
        stream.finish { out.append(($0.offset, Array($0.text[..<($0.envelopeStart ?? $0.text.count)]))) }
        return out
    }

    @Test func aPlainLogOfContinuationLinesIsCutIntoBoundedEntriesAndLosesNoLine() {
        let log = Self.plainLog()
        let entries = Self.entries(log)
        #expect(entries.count == 2, "2 MB of lines in entries of at most 1 MiB")
        #expect(entries.allSatisfy { $0.text.count <= Self.limit })
        // Every line, in order: the entries' lines joined again are the log.
        #expect(entries.map { $0.text + [0x0A] }.joined().elementsEqual(log))
        // Each entry starts where its first line is in the file.
        var offset: Int64 = 0
        for entry in entries {
            #expect(entry.offset == offset)
            offset += Int64(entry.text.count + 1)
        }
        // The first entry was full: the line after it did not fit.
        #expect(entries[0].text.count + 1 + 100 > Self.limit)
    }

    @Test(arguments: [ContainerFormat.cri, .docker])
    func aContainerLogOfContinuationLinesIsCutIntoBoundedEntriesAndLosesNoLine(format: ContainerFormat) {
        let lines = String(decoding: Self.plainLog(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        var log: [UInt8] = []
        for line in lines {
            switch format {
            case .cri: log += Array("2026-11-27T10:00:00.000000001Z stdout F \(line)\n".utf8)
            case .docker: log += Array(#"{"log":"\#(line)\n","stream":"stdout","time":"2026-11-27T10:00:00.000000001Z"}"#.utf8) + [0x0A]
            }
        }
        let entries = Self.entries(log, container: format)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.text.count <= Self.limit })
        #expect(entries.map { $0.text + [0x0A] }.joined().elementsEqual(lines.map { Array($0.utf8) + [0x0A] }.joined()))
        #expect(entries.map(\.offset) == entries.map(\.offset).sorted())
    }
}
