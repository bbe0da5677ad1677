import Testing
@testable import SpytailCore
import SpytailLogGen

/// The envelope of one physical line, CRI and Docker json-file: what is read, and what is refused and where.
struct ContainerLineReaderTests {
    struct Read: Equatable {
        var stream: ContainerStream, partial: Bool, time: String, content: String, attrs: String?
    }

    static func read(_ line: String, _ format: ContainerFormat) -> Result<Read, ParseProblem> {
        let reader = ContainerLineReader(format: format)
        return Array(line.utf8).withUnsafeBufferPointer { bytes in
            do throws(ParseProblem) {
                let r = try reader.read(bytes)
                let text = { (b: UnsafeBufferPointer<UInt8>) in String(decoding: b, as: UTF8.self) }
                return .success(Read(stream: r.stream, partial: r.partial, time: text(r.time), content: text(r.content), attrs: r.attrs.map(text)))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test(arguments: [
        // containerd: Z, trailing zeros dropped; conmon: +00:00 and nine digits; an empty text with and without its space
        ("2026-11-25T12:00:00.1234Z stdout F hello world", Read(stream: .stdout, partial: false, time: "2026-11-25T12:00:00.1234Z", content: "hello world", attrs: nil)),
        ("2026-11-25T12:00:00.123456789+00:00 stderr P part", Read(stream: .stderr, partial: true, time: "2026-11-25T12:00:00.123456789+00:00", content: "part", attrs: nil)),
        ("2026-11-25T12:00:00Z stdout F ", Read(stream: .stdout, partial: false, time: "2026-11-25T12:00:00Z", content: "", attrs: nil)),
        ("2026-11-25T12:00:00Z stdout F", Read(stream: .stdout, partial: false, time: "2026-11-25T12:00:00Z", content: "", attrs: nil)),
        ("2026-11-25T12:00:00Z stdout F  two  spaces kept ", Read(stream: .stdout, partial: false, time: "2026-11-25T12:00:00Z", content: " two  spaces kept ", attrs: nil)),
        ("2026-11-25T12:00:00Z stdout F:x text", Read(stream: .stdout, partial: false, time: "2026-11-25T12:00:00Z", content: "text", attrs: nil)),
    ])
    func criLinesAreRead(line: String, expected: Read) throws {
        #expect(try Self.read(line, .cri).get() == expected)
    }

    @Test(arguments: [
        ("hello", "cri: no valid RFC 3339 time at byte 0"),
        ("2026-13-25T12:00:00Z stdout F x", "cri: no valid RFC 3339 time at byte 0"),
        ("2026-11-25T12:00:00Z stdin F x", "cri: no valid stream (stdout or stderr) at byte 21"),
        ("2026-11-25T12:00:00Z stdout X x", "cri: no valid tag (P or F) at byte 28"),
        ("2026-11-25T12:00:00Z stdout Fx", "cri: no valid tag (P or F) at byte 28"),
        ("2026-11-25T12:00:00Z stdout", "cri: no valid stream (stdout or stderr) at byte 21"),
    ])
    func criLinesThatAreNotAreRefusedWithWhere(line: String, message: String) {
        guard case .failure(let problem) = Self.read(line, .cri) else { Issue.record("read \(line)"); return }
        #expect(problem.description == message)
    }

    @Test func dockerLinesAreReadAndTheirTextDecoded() throws {
        let whole = try Self.read(#"{"log":"a \u003cb\u003e \"q\" \u00e9\n","stream":"stderr","time":"2026-11-25T12:00:00.5Z"}"#, .docker).get()
        #expect(whole == Read(stream: .stderr, partial: false, time: "2026-11-25T12:00:00.5Z", content: #"a <b> "q" é"#, attrs: nil))
        let part = try Self.read(#"{"log":"no newline yet","stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, .docker).get()
        #expect(part.partial && part.content == "no newline yet")
        let crlf = try Self.read(#"{"log":"windows\r\n","stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, .docker).get()
        #expect(!crlf.partial && crlf.content == "windows")
        let attrs = try Self.read(#"{"log":"x\n","stream":"stdout","attrs":{"tag":"web","env":"prod"},"time":"2026-11-25T12:00:00Z"}"#, .docker).get()
        #expect(attrs.attrs == #"{"tag":"web","env":"prod"}"#)
        let plain = try Self.read(#"{"log":"plain","stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, .docker).get()
        #expect(plain.content == "plain", "a string without escapes is read in place")
    }

    @Test(arguments: [
        (#"{"log":"x\n","stream":"stdout""#, "docker: the line ends inside a value at byte 30"),
        (#"{"stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, "docker: no valid log (a string) at byte 0"),
        (#"{"log":"x\n","stream":"stdin","time":"2026-11-25T12:00:00Z"}"#, "docker: no valid stream (stdout or stderr) at byte 0"),
        (#"{"log":"x\n","stream":"stdout","time":"yesterday"}"#, "docker: no valid RFC 3339 time at byte 0"),
        (#"{"log":1,"stream":"stdout","time":"2026-11-25T12:00:00Z"}"#, "docker: no valid log (a string) at byte 0"),
        ("plain text", "docker: not an object at byte 0"),
    ])
    func dockerLinesThatAreNotAreRefusedWithWhere(line: String, message: String) {
        guard case .failure(let problem) = Self.read(line, .docker) else { Issue.record("read \(line)"); return }
        #expect(problem.description == message)
    }
}

/// The test writer of container logs writes what the runtimes write.
struct ContainerEnvelopeWriterTests {
    @Test func dockerPartsOfACutCharacterAreWrittenAsGoDoesAndReadBackValid() throws {
        let text = Array("héllo wörld <&>".utf8)
        let writer = ContainerEnvelopeWriter(runtime: .docker, partSize: 2)  // cuts é and ö in halves
        let lines = writer.lines(for: text, stdout: false, nanos: 1_795_000_000_500_000_000).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.first == #"{"log":"h\ufffd","stream":"stderr","time":"2026-11-18T11:06:40.5Z"}"#)
        #expect(lines.contains { $0.contains(#""log":"\u003c\u0026""#) } && lines.last?.contains(#""log":"\u003e\n""#) == true)
        for line in lines { #expect(throws: Never.self) { try ContainerLineReaderTests.read(line, .docker).get() } }
        let cri = ContainerEnvelopeWriter(runtime: .conmon).lines(for: Array("x".utf8), stdout: true, nanos: 1_795_000_000_000_000_007)
        #expect(String(decoding: cri, as: UTF8.self) == "2026-11-18T11:06:40.000000007+00:00 stdout F x\n")
    }
}

/// Docker lines as the driver writes them are read in one pass; anything else by the JSON scanner. Both must
/// read the same lines alike, and refuse the same ones.
struct DockerFastPathTests {
    static func outcome(_ reader: ContainerLineReader, _ line: [UInt8]) -> String {
        line.withUnsafeBufferPointer { bytes in
            do throws(ParseProblem) {
                let r = try reader.read(bytes)
                let text = { (b: UnsafeBufferPointer<UInt8>) in String(decoding: b, as: UTF8.self) }
                return "\(r.stream) \(r.partial) \(text(r.time)) [\(text(r.content))] \(r.attrs.map(text) ?? "-")"
            } catch {
                return "refused"  // the scanner says why; the one-pass reader never refuses, it hands over
            }
        }
    }

    @Test func theOnePassReaderAndTheScannerAgree() {
        let fast = ContainerLineReader(format: .docker), general = ContainerLineReader(format: .docker)
        general.readsAsWritten = false
        var random = SplitMix64(seed: 77)
        // The text mostly of what Docker writes without \u escapes (so most lines take the one pass), characters
        // of two, three and four bytes included; the mutations from everything: control bytes, a character's
        // bytes alone, and bytes UTF-8 never holds (overlong forms, surrogates, past U+10FFFF).
        let characters = ["a", "b", " ", "\"", "\\", "/", "\t", "\r", "\n", "{", "}", ":", ",", "0", "\u{7F}", "é", "€", "😀"].map { Array($0.utf8) }
        let mutations = Array("ab \"\\/\t\r\n{}:,0é€😀<>&u".utf8) + [0x7F, 0x01, 0x0A, 0x00, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xA0, 0xF0, 0x8F, 0xF4, 0x90, 0xF5, 0xFF]
        var lines = 0
        for _ in 0..<3000 {
            let text = (0..<random.below(40)).flatMap { _ in random.pick(characters) }
            let writer = ContainerEnvelopeWriter(runtime: .docker, partSize: random.chance(20) ? max(1, text.count / 2) : max(1, text.count))
            for var line in writer.lines(for: text, stdout: random.chance(50), nanos: 1_795_000_000_000_000_000 + Int64(random.below(1_000_000_000)))
                .split(separator: 0x0A).map(Array.init) {
                if random.chance(30) && !line.isEmpty {  // a byte changed, dropped or added
                    let at = random.below(line.count)
                    switch random.below(3) {
                    case 0: line[at] = random.pick(mutations + Array("0123456789TZ-".utf8))
                    case 1: line.remove(at: at)
                    default: line.insert(random.pick(mutations), at: at)
                    }
                }
                lines += 1
                let (a, b) = (Self.outcome(fast, line), Self.outcome(general, line))
                if a != b {
                    Issue.record("\(String(decoding: line, as: UTF8.self)): one pass \(a), scanner \(b)")
                    return
                }
            }
        }
        #expect(lines > 3000)
    }

    /// The one pass is what makes Docker logs fast: the driver's own lines, escapes and all, must take it
    /// (a slip in it only sends every line to the scanner, which the test above cannot see).
    @Test func theDriversLinesAreReadInOnePass() throws {
        let reader = ContainerLineReader(format: .docker)
        let texts = [#"plain text"#, #"quote " backslash \ slash / tab \t end"#, "2026-11-20T10:00:00Z INFO [db] x=1", String(repeating: "long ", count: 80),
                     "naïve café: 12 € 😀 ok"]
        var count = 0
        for (k, text) in texts.enumerated() {
            let writer = ContainerEnvelopeWriter(runtime: .docker, partSize: k == 3 ? 150 : 1000)
            for line in writer.lines(for: Array(text.utf8), stdout: k % 2 == 0, nanos: 1_795_000_000_000_000_000 + Int64(k) * 1_000_003)
                .split(separator: 0x0A) {
                let read = try Array(line).withUnsafeBufferPointer { bytes in try reader.read(bytes) }
                #expect(read.stream == (k % 2 == 0 ? .stdout : .stderr))
                count += 1
            }
        }
        #expect(count == 7 && reader.onePassLines == count)
    }
}
