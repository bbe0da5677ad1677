/// Reads the envelope of one physical line, CRI or Docker json-file (`ContainerLine`), or says what is wrong
/// with it and where. Holds the JSON scanner and the buffer a Docker `log` string is decoded into.
public final class ContainerLineReader {
    public let format: ContainerFormat
    private var scanner = JSONLineScanner()
    private var fields: [FieldValue] = []
    /// Where a Docker `log` with escapes is decoded; decoding never makes a string longer.
    private var decoded: UnsafeMutablePointer<UInt8>
    private var decodedCapacity = 0
    private var scratch: [UInt8] = []

    public init(format: ContainerFormat) {
        self.format = format
        decoded = .allocate(capacity: 1)
    }

    deinit { decoded.deallocate() }

    /// The line's parts; the buffers stay valid until the next call.
    public func read(_ line: UnsafeBufferPointer<UInt8>) throws(ParseProblem) -> ContainerLine {
        switch format {
        case .cri: try Self.readCRI(line)
        case .docker: try readDocker(line)
        }
    }

    // MARK: CRI

    /// `<time> <stream> <tag> <text>`: the tag is `P` or `F`, possibly followed by `:`-separated tags of
    /// later CRI versions; the text may be empty (with or without the space before it).
    static func readCRI(_ line: UnsafeBufferPointer<UInt8>) throws(ParseProblem) -> ContainerLine {
        let space = UInt8(ascii: " ")
        guard let timeEnd = line.firstIndex(of: space), isTime(UnsafeBufferPointer(rebasing: line[..<timeEnd])) else {
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
        return ContainerLine(stream: stream, partial: line[tagStart] == UInt8(ascii: "P"),
                             time: UnsafeBufferPointer(rebasing: line[..<timeEnd]),
                             content: UnsafeBufferPointer(rebasing: line[contentStart...]), attrs: nil)
    }

    /// An RFC 3339 date and time (`Z` or an offset, any fraction): the runtimes write nothing else.
    static func isTime(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count >= 20 && text[10] == UInt8(ascii: "T") && TimestampParser.iso8601(text) != nil
    }

    // MARK: Docker json-file

    private static let logKey: [UInt8] = Array("log".utf8)
    private static let streamKey: [UInt8] = Array("stream".utf8)
    private static let timeKey: [UInt8] = Array("time".utf8)
    private static let attrsKey: [UInt8] = Array("attrs".utf8)

    private func readDocker(_ line: UnsafeBufferPointer<UInt8>) throws(ParseProblem) -> ContainerLine {
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
        var content = UnsafeBufferPointer(rebasing: line[log.range])
        if log.escaped { content = decode(content) }
        let partial = content.last != 0x0A
        if !partial {
            content = UnsafeBufferPointer(rebasing: content.dropLast())
            if content.last == 0x0D { content = UnsafeBufferPointer(rebasing: content.dropLast()) }
        }
        return ContainerLine(stream: stream, partial: partial, time: UnsafeBufferPointer(rebasing: line[time]),
                             content: content, attrs: attrs.map { UnsafeBufferPointer(rebasing: line[$0]) })
    }

    private func key(_ field: FieldValue, is name: [UInt8], _ line: UnsafeBufferPointer<UInt8>) -> Bool {
        name.withUnsafeBufferPointer { JSONWalker.keyEquals(field, $0, in: line) }
    }

    /// The JSON string content `escaped`, decoded into the reader's buffer.
    private func decode(_ escaped: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        scratch.removeAll(keepingCapacity: true)
        JSONStringDecoder.decode(escaped, into: &scratch)
        if scratch.count > decodedCapacity {
            decoded.deallocate()
            decodedCapacity = max(scratch.count, 2 * decodedCapacity)
            decoded = .allocate(capacity: decodedCapacity)
        }
        scratch.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(start: decoded, count: $0.count).initialize(from: $0) }
        return UnsafeBufferPointer(start: decoded, count: scratch.count)
    }
}
