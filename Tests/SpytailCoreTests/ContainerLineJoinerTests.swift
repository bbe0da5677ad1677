import Testing
@testable import SpytailCore
import SpytailLogGen

/// Parts of long lines joined, multiline per stream, and the promise a checkpoint relies on: whatever was
/// handed out before a restart, and whatever a restart from `resumeOffset` hands out, is every entry once.
struct ContainerLineJoinerTests {
    /// An entry as it went out: where it starts, its text and envelope parts.
    struct Out: Equatable, Hashable, CustomStringConvertible {
        var offset: Int64, head: String, detail: String?, stream: String?, problem: String?, truncated: Bool
        var description: String { "@\(offset) \(stream ?? "-") \(head.prefix(40))\(detail.map { " +[\($0.prefix(30))]" } ?? "")\(problem.map { " !\($0)" } ?? "")" }
    }

    static func file() -> SourceFile { SourceFile(path: "/var/log/pods/ns_pod_uid/c/0.log", fingerprint: Fingerprint(value: 7)) }

    static func out(_ entry: SpyEntry) -> Out {
        let envelope = entry.envelopeStart.map { start in entry.text.withUnsafeBufferPointer { ContainerEnvelope.read($0, from: start, to: $0.count) } }
        return Out(offset: entry.offset, head: entry.string(0..<entry.headLength), detail: entry.detailString,
                   stream: envelope.map { entry.string($0.stream.range) }, problem: entry.envelopeProblem?.description, truncated: entry.truncated)
    }

    /// Entries of `text` read in chunks of `chunk` bytes from `start`; with `stopAt`, reading stops once that
    /// many bytes were pushed, and the resume offset is returned with what went out.
    static func read(_ text: [UInt8], format: ContainerFormat, continuation: String? = nil, maxLineBytes: Int = 1 << 20,
                     from start: Int = 0, chunk: Int = 4096, stopAt: Int? = nil) -> (entries: [Out], resume: Int64) {
        var stream = EntryStream(file: file(), maxLineBytes: maxLineBytes, continuation: continuation.map { try! Regex($0) },
                                 container: format, startOffset: Int64(start))
        var entries: [Out] = []
        let end = stopAt ?? text.count
        var at = start
        text.withUnsafeBufferPointer { bytes in
            while at < end {
                let next = min(at + chunk, end)
                stream.push(UnsafeBufferPointer(rebasing: bytes[at..<next])) { entries.append(out($0)) }
                at = next
            }
        }
        if stopAt == nil { stream.finish { entries.append(out($0)) } }
        return (entries, stream.resumeOffset)
    }

    static func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    @Test func partsAreJoinedPerStreamAndEntriesGoOutInTheOrderTheyStart() {
        // As conmon wrote it in podman (see EndToEndTests): a long stdout line cut in parts, a stderr line between.
        let log = Self.bytes([
            "2026-11-25T12:00:00.000000001+00:00 stdout F first",
            "2026-11-25T12:00:00.000000002+00:00 stdout P aaa",
            "2026-11-25T12:00:00.000000003+00:00 stderr F err",
            "2026-11-25T12:00:00.000000004+00:00 stdout P bbb",
            "2026-11-25T12:00:00.000000005+00:00 stdout F ccc",
            "not a cri line",
            "2026-11-25T12:00:00.000000006+00:00 stdout P never finished",
        ])
        let entries = Self.read(log, format: .cri, chunk: 7).entries
        #expect(entries.map(\.head) == ["first", "aaabbbccc", "err", "not a cri line", "never finished"])
        #expect(entries.map(\.stream) == ["stdout", "stdout", "stderr", nil, "stdout"])
        #expect(entries[3].problem == "cri: no valid RFC 3339 time at byte 0")
        #expect(entries.map(\.offset) == entries.map(\.offset).sorted(), "ids follow the file")
    }

    @Test func aJoinedLineIsCutAtTheLineLimitAndFlaggedNeverSplit() {
        let parts = (0..<10).map { "2026-11-25T12:00:00Z stdout \($0 == 9 ? "F" : "P") " + String(repeating: Character(UnicodeScalar(97 + $0)!), count: 40) }
        let entries = Self.read(Self.bytes(parts + ["2026-11-25T12:00:01Z stdout F next"]), format: .cri, maxLineBytes: 100).entries
        #expect(entries.count == 2)
        #expect(entries[0].head.count == 100 && entries[0].truncated && entries[0].head.hasPrefix(String(repeating: "a", count: 40)))
        #expect(entries[1].head == "next" && !entries[1].truncated)
    }

    /// Entries of one stream wait behind the other stream's unfinished line (they go out in the order they
    /// start), but only up to `ContinuationRule.maxEntryBytes` of them: past that the open line is closed as it
    /// is and everything goes out, before the end of the input. 15,000 stdout lines of about 100 bytes (1.5 MB)
    /// behind a stderr part that never finishes, 1 MiB allowed.
    @Test func entriesWaitingBehindAnotherStreamsOpenLineAreBounded() {
        let open = "2026-11-25T12:00:00Z stderr P a part that never finishes"
        let lines = (0..<15_000).map { "2026-11-25T12:00:01Z stdout F line \($0) " + String(repeating: "x", count: 60) }
        let log = Self.bytes([open] + lines)
        let handedOut = Self.read(log, format: .cri, maxLineBytes: 1024, stopAt: log.count).entries
        #expect(handedOut.first?.head == "a part that never finishes", "the open line, closed by force, goes first")
        #expect(handedOut.count > 1, "and the entries that waited behind it follow before the end")
        #expect(handedOut.map(\.offset) == handedOut.map(\.offset).sorted())
    }

    /// A whole line over the limit takes the common path (held until the next line, or handed out at once
    /// without a multiline rule): cut on a character boundary and flagged, as a joined one is.
    @Test(arguments: [ContainerFormat.cri, .docker], [false, true])
    func aWholeLineOverTheLimitIsCutOnACharacterAndFlagged(format: ContainerFormat, multiline: Bool) {
        let long = String(repeating: "a", count: 99) + "é" + "tail"  // "é" straddles byte 100
        let lines = format == .cri
            ? ["2026-11-25T12:00:00Z stdout F \(long)", "2026-11-25T12:00:01Z stdout F next"]
            : [#"{"log":"\#(long)\n","stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, #"{"log":"next\n","stream":"stdout","time":"2026-11-25T12:00:01Z"}"#]
        let entries = Self.read(Self.bytes(lines), format: format, continuation: multiline ? #"^\s"# : nil, maxLineBytes: 100).entries
        #expect(entries.count == 2)
        #expect(entries.first?.head == String(repeating: "a", count: 99) && entries.first?.truncated == true && entries.first?.stream == "stdout")
        #expect(entries.last?.head == "next" && entries.last?.truncated == false)
    }

    @Test func aMultilineRuleJoinsEachStreamsLinesApart() {
        let log = Self.bytes([
            "2026-11-25T12:00:00Z stderr F Traceback (most recent call last):",
            "2026-11-25T12:00:00Z stdout F GET /a 200",
            "2026-11-25T12:00:00Z stderr F   File \"app.py\", line 3",
            "2026-11-25T12:00:00Z stdout F GET /b 200",
            "2026-11-25T12:00:00Z stderr F ValueError: no",
            "2026-11-25T12:00:00Z stdout F   an indented stdout line joins stdout's entry",
        ])
        let entries = Self.read(log, format: .cri, continuation: #"^(\s|\w+Error:)"#).entries
        #expect(entries.map(\.head) == ["Traceback (most recent call last):", "GET /a 200", "GET /b 200"])
        #expect(entries[0].detail == "  File \"app.py\", line 3\nValueError: no")
        #expect(entries[2].detail == "  an indented stdout line joins stdout's entry")
    }

    @Test func dockerPartsAreJoinedAndItsAttrsKept() {
        let log = Self.bytes([
            #"{"log":"part one, ","stream":"stdout","attrs":{"tag":"web"},"time":"2026-11-25T12:00:00Z"}"#,
            #"{"log":"part two\n","stream":"stdout","attrs":{"tag":"web"},"time":"2026-11-25T12:00:01Z"}"#,
            #"{"log":"\u003chtml\u003e\n","stream":"stderr","time":"2026-11-25T12:00:02Z"}"#,
        ])
        let entries = Self.read(log, format: .docker).entries
        #expect(entries.map(\.head) == ["part one, part two", "<html>"])
        #expect(entries.map(\.stream) == ["stdout", "stderr"])
    }

    @Test func aLineNotInTheFormatBetweenPartsDoesNotHoldBackWhatFollows() {
        // Docker cuts a long line at 16 KiB and Go writes each part's broken UTF-8 as U+FFFD, but a part that is not
        // JSON at all (a truncated write) is its own entry, inside the span of the line around it. Once that line is
        // whole, both go out: nothing may wait behind them for the next multiline entry to close.
        var lines = ["2026-11-25T12:00:00Z stdout P first half, ", "not a cri line", "2026-11-25T12:00:00Z stdout F second half"]
        lines += (0..<50).map { "2026-11-25T12:00:01Z stdout F line \($0)" }
        let read = Self.read(Self.bytes(lines), format: .cri, continuation: #"^\s"#, stopAt: Self.bytes(lines).count)
        #expect(read.entries.map(\.head).prefix(3) == ["first half, second half", "not a cri line", "line 0"])
        #expect(read.entries.count == 51, "all but the last entry, which may still get continuation lines: \(read.entries.count)")
    }

    /// The shortcuts of the common cases (a whole line, a long line's parts, one stream open) against the general
    /// path they stand for: random logs of both streams, long lines in parts, lines not in the format, with and
    /// without a multiline rule, added a physical line at a time. After every line both joiners must have handed
    /// out the same lines (text, envelope, offsets, flags) and must resume from the same offset.
    @Test(arguments: [ContainerFormat.cri, .docker], [false, true])
    func theShortcutsHandOutWhatTheGeneralPathDoesStepByStep(format: ContainerFormat, multiline: Bool) {
        let continuation = multiline ? try! Regex(#"^\s"#) : nil
        for seed in 1...200 {
            var random = SplitMix64(seed: UInt64(seed))
            let runtime: ContainerEnvelopeWriter.Runtime = format == .docker ? .docker : random.pick([.containerd, .conmon])
            let writer = ContainerEnvelopeWriter(runtime: runtime, partSize: random.within(3...12))
            var log: [UInt8] = []
            for n in 0..<random.within(5...40) {
                if random.chance(3) { log += Array("junk \(n)\n".utf8); continue }
                var text = Array((multiline && random.chance(30) ? "  cont \(n) " : "line \(n) ").utf8)
                text += Array(repeating: UInt8(ascii: "x"), count: random.below(30))
                log += writer.lines(for: text, stdout: random.chance(80), nanos: 1_795_000_000_000_000_000 + Int64(n) * 1_000_137)
            }
            let maxLineBytes = random.within(8...64)
            var fast = ContainerLineJoiner(format: format, continuation: continuation, maxLineBytes: maxLineBytes)
            var general = ContainerLineJoiner(format: format, continuation: continuation, maxLineBytes: maxLineBytes)  // not a copy: a joiner's buffers are shared by its copies
            general.takesShortcuts = false
            var (fastOut, generalOut): ([String], [String]) = ([], [])
            let describe = { (line: Line) in
                "@\(line.offset) \(line.truncated) \(String(describing: line.container)) \(String(decoding: line.bytes, as: UTF8.self))"
            }
            var offset: Int64 = 0
            for physical in log.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                Array(physical).withUnsafeBufferPointer { bytes in
                    let line = Line(bytes: bytes, offset: offset)
                    fast.add(line) { fastOut.append(describe($0)) }
                    general.add(line) { generalOut.append(describe($0)) }
                }
                offset += Int64(physical.count + 1)
                guard fastOut == generalOut, fast.pendingOffset == general.pendingOffset, fast.hasPending == general.hasPending else {
                    let shortcuts = "shortcuts \(fastOut.suffix(3)), resume \(String(describing: fast.pendingOffset))"
                    let generalPath = "general path \(generalOut.suffix(3)), resume \(String(describing: general.pendingOffset))"
                    Issue.record("seed \(seed), \(format), after the line ending at \(offset): \(shortcuts); \(generalPath)")
                    return
                }
            }
            fast.flush { fastOut.append(describe($0)) }
            general.flush { generalOut.append(describe($0)) }
            #expect(fastOut == generalOut, "seed \(seed), \(format): at the end")
        }
    }

    /// A random container log: two streams, lines of random length cut in parts at random sizes, some lines not
    /// in the format, with or without a multiline rule; read whole, and read up to a random byte then again from
    /// the resume offset, as a restart does. Both must give the same entries, none twice, none lost.
    @Test(arguments: [ContainerFormat.cri, .docker], [false, true])
    func aRestartFromTheResumeOffsetRepeatsAndLosesNothing(format: ContainerFormat, multiline: Bool) {
        let continuation = multiline ? #"^\s"# : nil
        for seed in 1...150 {
            var random = SplitMix64(seed: UInt64(seed))
            let runtime: ContainerEnvelopeWriter.Runtime = format == .docker ? .docker : random.pick([.containerd, .conmon])
            let writer = ContainerEnvelopeWriter(runtime: runtime, partSize: random.within(3...12))
            var log: [UInt8] = []
            var open: [Bool: [UInt8]] = [:]  // a stream's line still being written, part by part
            for n in 0..<random.within(5...40) {
                if random.chance(3) { log += Array("junk \(n)\n".utf8); continue }
                let stdout = random.chance(60)
                var text = Array((multiline && random.chance(30) ? "  cont \(n) " : "line \(n) ").utf8)
                text += Array(repeating: UInt8(ascii: "x"), count: random.below(30))
                // Interleave: write the first parts of this line, leave the rest for later, as two streams do.
                if let held = open.removeValue(forKey: stdout) { log += held }
                let physical = writer.lines(for: text, stdout: stdout, nanos: 1_795_000_000_000_000_000 + Int64(n) * 1_000_137)
                let cut = physical.indices.filter { physical[$0] == 0x0A }
                if cut.count > 1 && random.chance(40) {
                    let split = cut[random.below(cut.count - 1)] + 1
                    log += physical[..<split]
                    open[stdout] = Array(physical[split...])
                } else {
                    log += physical
                }
            }
            for (_, rest) in open.sorted(by: { $0.key && !$1.key }) { log += rest }
            let whole = Self.read(log, format: format, continuation: continuation, chunk: random.within(1...64)).entries
            #expect(Set(whole).count == whole.count, "seed \(seed): an entry went out twice in one read")
            let stop = random.below(log.count + 1)
            let first = Self.read(log, format: format, continuation: continuation, chunk: random.within(1...64), stopAt: stop)
            let second = Self.read(log, format: format, continuation: continuation, from: Int(first.resume), chunk: random.within(1...64)).entries
            let both = first.entries + second
            if both.map(\.offset).sorted() != whole.map(\.offset) || Set(both) != Set(whole) {
                Issue.record("seed \(seed), \(format), stop \(stop), resume \(first.resume):\n whole \(whole)\n first \(first.entries)\n then \(second)")
                return
            }
        }
    }
}
