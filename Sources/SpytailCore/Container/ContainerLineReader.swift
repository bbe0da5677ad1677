import CJSONScan
import Glibc

/// Reads the envelope of one physical line, CRI or Docker json-file (`ContainerLine`), or says what is wrong
/// with it and where. Holds the JSON scanner and the buffer a Docker `log` string is decoded into.
public final class ContainerLineReader {
    public let format: ContainerFormat
    /// Made for the first line that is not as the driver writes it (2.8 KB each, one reader per file).
    private lazy var scanner = JSONLineScanner()
    // Used by one file's reading thread only, once per line: unchecked exclusivity (no inout access escapes).
    @exclusivity(unchecked) private var fields: [FieldValue] = []
    /// Where a Docker `log` is decoded; decoding never makes a string longer. A held line may take it in
    /// exchange for its own buffer (`HeldLine`): a line read as written leaves room after its text for its
    /// envelope, which is shorter than the JSON around the text.
    @exclusivity(unchecked) var decoded = ByteBuffer()
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// The seconds of the last Docker time the one-pass reader checked (`cjs_time_memo`).
    @exclusivity(unchecked) private var timeMemo = cjs_time_memo()
    /// Docker lines as the driver writes them are read in one pass (tests turn it off to compare).
    @exclusivity(unchecked) var readsAsWritten = true
    /// Lines read in that one pass (tests check the driver's lines take it).
    @exclusivity(unchecked) private(set) var onePassLines = 0

    public init(format: ContainerFormat) {
        self.format = format
    }

    /// The line's parts, read into `out`; the buffers stay valid until the next call.
    public func read(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine) throws(ParseProblem) {
        switch format {
        case .cri: try Self.readCRI(line, into: &out)
        case .docker: try readDocker(line, into: &out, tryingAsWritten: true)
        }
    }

    /// A Docker line exactly as the driver writes it, read in one pass into `out` (`readDockerAsWritten`): the
    /// joiner's common case, without a throwing call around it. False for any other line (and for CRI): then
    /// `readAfterAsWritten` reads it, or says what is wrong and where.
    func readAsWritten(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine) -> Bool {
        format == .docker && readsAsWritten && readDockerAsWritten(line, into: &out)
    }

    /// `read(_:into:)` for a line `readAsWritten` did not take: not tried that way again.
    func readAfterAsWritten(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine) throws(ParseProblem) {
        switch format {
        case .cri: try Self.readCRI(line, into: &out)
        case .docker: try readDocker(line, into: &out, tryingAsWritten: false)
        }
    }

    /// The line's parts; the buffers stay valid until the next call.
    public func read(_ line: UnsafeBufferPointer<UInt8>) throws(ParseProblem) -> ContainerLine {
        var out = ContainerLine.unread
        try read(line, into: &out)
        return out
    }

    // MARK: CRI

    /// `<time> <stream> <tag> <text>`: the tag is `P` or `F`, possibly followed by `:`-separated tags of
    /// later CRI versions; the text may be empty (with or without the space before it).
    static func readCRI(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine) throws(ParseProblem) {
        let space = UInt8(ascii: " ")
        guard let base = line.baseAddress, let found = memchr(base, Int32(space), line.count),
              case let timeEnd = UnsafeRawPointer(found) - UnsafeRawPointer(base), isTime(UnsafeBufferPointer(rebasing: line[..<timeEnd])) else {
            throw ParseProblem(.cri, .badEnvelope(.time), at: 0)
        }
        let streamStart = timeEnd + 1
        let streamEnd = streamStart + 6
        guard streamEnd < line.count, line[streamEnd] == space,
              let stream = ContainerStream(UnsafeBufferPointer(rebasing: line[streamStart..<streamEnd])) else {
            throw ParseProblem(.cri, .badEnvelope(.stream), at: streamStart)
        }
        let tagStart = streamEnd + 1
        guard tagStart < line.count, line[tagStart] == UInt8(ascii: "P") || line[tagStart] == UInt8(ascii: "F") else {
            throw ParseProblem(.cri, .badEnvelope(.tag), at: tagStart)
        }
        var cursor = tagStart + 1
        if cursor < line.count, line[cursor] == UInt8(ascii: ":") {
            while cursor < line.count, line[cursor] != space { cursor += 1 }
        }
        guard cursor == line.count || line[cursor] == space else { throw ParseProblem(.cri, .badEnvelope(.tag), at: tagStart) }
        let contentStart = min(cursor + 1, line.count)
        out.stream = stream
        out.partial = line[tagStart] == UInt8(ascii: "P")
        out.time = UnsafeBufferPointer(rebasing: line[..<timeEnd])
        out.content = UnsafeBufferPointer(rebasing: line[contentStart...])
        out.attrsBytes = UnsafeBufferPointer(start: nil, count: 0)
    }

    /// An RFC 3339 date and time (`Z` or an offset, any fraction): the runtimes write nothing else.
    /// The C check answers for the times runtimes write; the parser for the rest (other years, its liberties).
    static func isTime(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let base = text.baseAddress, cjs_is_runtime_time(base, text.count) == 1 { return true }
        return text.count >= 20 && text[10] == UInt8(ascii: "T") && TimestampParser.iso8601(text) != nil
    }

    // MARK: Docker json-file

    private static let logKey: [UInt8] = Array("log".utf8)
    private static let streamKey: [UInt8] = Array("stream".utf8)
    private static let timeKey: [UInt8] = Array("time".utf8)
    private static let attrsKey: [UInt8] = Array("attrs".utf8)

    private func readDocker(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine, tryingAsWritten: Bool) throws(ParseProblem) {
        if tryingAsWritten, readsAsWritten, readDockerAsWritten(line, into: &out) { return }
        guard let base = line.baseAddress, !line.isEmpty else { throw ParseProblem(.docker, .unexpectedEnd, at: 0) }
        fields.removeAll(keepingCapacity: true)
        do throws(ParseProblem) {
            try scanner.scanObject(base, line.count, into: &fields)
        } catch {
            throw ParseProblem(.docker, error.reason, at: error.offset)
        }
        var log: FieldValue?, stream: ContainerStream?, time: Range<Int>?, attrs: Range<Int>?
        for field in fields {
            if key(field, is: Self.logKey, line), field.kind == .string {
                log = field
            } else if key(field, is: Self.streamKey, line), field.kind == .string {
                stream = ContainerStream(UnsafeBufferPointer(rebasing: line[field.range]))
            } else if key(field, is: Self.timeKey, line), field.kind == .string {
                time = field.range
            } else if key(field, is: Self.attrsKey, line), field.kind == .object {
                attrs = field.range
            }
        }
        guard let log else { throw ParseProblem(.docker, .badEnvelope(.log), at: 0) }
        guard let stream else { throw ParseProblem(.docker, .badEnvelope(.stream), at: 0) }
        guard let time, Self.isTime(UnsafeBufferPointer(rebasing: line[time])) else {
            throw ParseProblem(.docker, .badEnvelope(.time), at: 0)
        }
        let content = UnsafeBufferPointer(rebasing: line[log.range])
        out.stream = stream
        out.time = UnsafeBufferPointer(rebasing: line[time])
        out.attrsBytes = attrs.map { UnsafeBufferPointer(rebasing: line[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        Self.setLog(log.escaped ? decode(content) : content, of: &out)
    }

    /// Sets a Docker line's text from its decoded `log`: a `log` that does not end in `\n` is a part of a longer line; the
    /// final `\n` (and a `\r` before it) is not the application's text.
    private static func setLog(_ log: UnsafeBufferPointer<UInt8>, of line: inout ContainerLine) {
        var content = log
        let partial = content.last != 0x0A
        if !partial {
            content = UnsafeBufferPointer(rebasing: content.dropLast())
            if content.last == 0x0D { content = UnsafeBufferPointer(rebasing: content.dropLast()) }
        }
        line.partial = partial
        line.content = content
    }

    /// The line exactly as Docker's json-file driver writes it — `{"log":"…","stream":"…","time":"…"}`,
    /// well-formed UTF-8, no attrs, no spaces — read in one pass by `cjs_read_docker_as_written`, its `log`
    /// decoded into the reader's buffer as it is read (clean runs copied 16 bytes at a time); false for anything
    /// else, which the JSON scanner reads (and refuses with its reason). Both accept the same such lines: a
    /// control byte or a byte that is not UTF-8 in the string, a `\u` escape or a time the C check is not sure
    /// of send it to the scanner too.
    private func readDockerAsWritten(_ line: UnsafeBufferPointer<UInt8>, into out: inout ContainerLine) -> Bool {
        guard let base = line.baseAddress else { return false }
        decoded.reserve(line.count)
        var parts = cjs_docker_line()
        guard cjs_read_docker_as_written(base, line.count, decoded.base, &timeMemo, &parts) == 1 else { return false }
        onePassLines &+= 1
        out.stream = parts.stream == 0 ? .stdout : .stderr
        out.partial = parts.partial != 0
        out.time = UnsafeBufferPointer(start: base + parts.time_start, count: parts.time_length)
        out.content = UnsafeBufferPointer(start: decoded.base, count: parts.content_length)
        out.attrsBytes = UnsafeBufferPointer(start: nil, count: 0)
        return true
    }

    private func key(_ field: FieldValue, is name: [UInt8], _ line: UnsafeBufferPointer<UInt8>) -> Bool {
        name.withUnsafeBufferPointer { JSONWalker.keyEquals(field, $0, in: line) }
    }

    /// The JSON string content `escaped`, decoded into the reader's buffer.
    private func decode(_ escaped: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        scratch.removeAll(keepingCapacity: true)
        JSONStringDecoder.decode(escaped, into: &scratch)
        decoded.reserve(scratch.count)
        scratch.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(start: decoded.base, count: $0.count).initialize(from: $0) }
        return UnsafeBufferPointer(start: decoded.base, count: scratch.count)
    }
}
