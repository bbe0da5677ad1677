/// What a container runtime said about a line besides its text — its time, its stream and (Docker) its
/// `attrs` — kept in an entry's `text` after the application's lines, from `SpyEntry.envelopeStart`, so that
/// the parser can point the timestamp and the `stream` and `attrs` fields at it like at any other bytes.
///
/// The layout is private to this type: `streamSTREAM \t [attrs{…} \t] TIME` (the stream is one of two words, the
/// time holds no tab and starts with a digit, the keys are written so that the fields' keys are bytes of the text
/// too). So the `stream` field is at a fixed place, and the time is found without a search when there are no
/// attrs (the common case): every record reads the envelope.
enum ContainerEnvelope {
    private static let tab = UInt8(ascii: "\t")
    /// Lengths of the keys `append` writes (`stream`, `attrs`), and of the stream's words.
    private static let streamKeyLength = 6, attrsKeyLength = 5, streamLength = 6

    /// Appends the envelope of a line to `out` (after its text).
    static func append(time: UnsafeBufferPointer<UInt8>, stream: ContainerStream, attrs: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length(time: time, attrs: attrs)))
        out.withUnsafeMutableBufferPointer { _ = write(time: time, stream: stream, attrs: attrs, to: $0.baseAddress! + start) }
    }

    /// How many bytes `write` writes.
    static func length(time: UnsafeBufferPointer<UInt8>, attrs: UnsafeBufferPointer<UInt8>?) -> Int {
        var length = streamKeyLength + streamLength + 1 + time.count
        if let attrs, !attrs.isEmpty { length += attrsKeyLength + attrs.count + 1 }
        return length
    }

    /// Writes the envelope of a line at `out`, which has room for `length(time:attrs:)` bytes; returns that
    /// length. The constant words are static strings, not arrays: a static array is retained and released at
    /// each use, on the reader's thread for every line.
    static func write(time: UnsafeBufferPointer<UInt8>, stream: ContainerStream, attrs: UnsafeBufferPointer<UInt8>?,
                      to out: UnsafeMutablePointer<UInt8>) -> Int {
        let words: StaticString = stream == .stdout ? "streamstdout\t" : "streamstderr\t"
        var at = words.withUTF8Buffer { put($0, at: out) }
        if let attrs, !attrs.isEmpty {
            at = ("attrs" as StaticString).withUTF8Buffer { put($0, at: at) }
            at = put(attrs, at: at)
            at.pointee = tab
            at += 1
        }
        at = put(time, at: at)
        return at - out
    }

    /// Copies `bytes` to `at`; returns the byte after them. (A nested function updating a captured pointer
    /// would have its every use checked for exclusive access at run time.)
    private static func put(_ bytes: UnsafeBufferPointer<UInt8>, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return at }
        at.update(from: base, count: bytes.count)
        return at + bytes.count
    }

    /// The parts of an envelope `append` wrote at `start` of `text`, as ranges of `text`.
    struct Parts {
        var time: Range<Int>
        var stream: FieldValue
        var attrs: FieldValue?
    }

    /// `end`: where the envelope ends (the end of the text before the parser appends decoded values).
    static func read(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Parts {
        let streamStart = start + streamKeyLength
        let afterStream = streamStart + streamLength + 1
        // Written as JSON members (the keys and `stdout`/`stderr` need no escape): an output copies them as they are.
        let stream = FieldValue(key: start..<streamStart, keyEscaped: false, range: streamStart..<streamStart + streamLength, kind: .string)
        // The time starts with a digit; `a` is the attrs' key. The time holds no tab: the last one ends the attrs.
        guard afterStream < end, text[afterStream] == UInt8(ascii: "a"),
              let attrsEnd = text[afterStream..<end].lastIndex(of: tab) else {
            return Parts(time: min(afterStream, end)..<end, stream: stream, attrs: nil)
        }
        let attrsStart = afterStream + attrsKeyLength
        let attrs = FieldValue(key: afterStream..<attrsStart, keyEscaped: false, range: attrsStart..<attrsEnd, kind: .object)
        return Parts(time: attrsEnd + 1..<end, stream: stream, attrs: attrs)
    }
}
