import Glibc

/// What a container runtime said about a line besides its text — its time, its stream and (Docker) its
/// `attrs` — kept in an entry's `text` after the application's lines, from `SpyEntry.envelopeStart`, so that
/// the parser can point the timestamp and the `stream` and `attrs` fields at it like at any other bytes.
///
/// The layout is private to this type: `TIME \t streamSTREAM \t [attrs{…}]` (the time holds no tab, the
/// stream is one of two words, the keys are written so that the fields' keys are bytes of the text too).
enum ContainerEnvelope {
    private static let tab = UInt8(ascii: "\t")
    /// Lengths of the keys `append` writes (`stream`, `attrs`).
    private static let streamKeyLength = 6, attrsKeyLength = 5

    /// Appends the envelope of a line to `out` (after its text).
    static func append(time: UnsafeBufferPointer<UInt8>, stream: ContainerStream, attrs: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length(time: time, attrs: attrs)))
        out.withUnsafeMutableBufferPointer { _ = write(time: time, stream: stream, attrs: attrs, to: $0.baseAddress! + start) }
    }

    /// How many bytes `write` writes.
    static func length(time: UnsafeBufferPointer<UInt8>, attrs: UnsafeBufferPointer<UInt8>?) -> Int {
        var length = time.count + 2 + streamKeyLength + 6
        if let attrs, !attrs.isEmpty { length += attrsKeyLength + attrs.count }
        return length
    }

    /// Writes the envelope of a line at `out`, which has room for `length(time:attrs:)` bytes; returns that
    /// length. The constant words are static strings, not arrays: a static array is retained and released at
    /// each use, on the reader's thread for every line.
    static func write(time: UnsafeBufferPointer<UInt8>, stream: ContainerStream, attrs: UnsafeBufferPointer<UInt8>?,
                      to out: UnsafeMutablePointer<UInt8>) -> Int {
        var at = put(time, at: out)
        let words: StaticString = stream == .stdout ? "\tstreamstdout\t" : "\tstreamstderr\t"
        at = words.withUTF8Buffer { put($0, at: at) }
        if let attrs, !attrs.isEmpty {
            at = ("attrs" as StaticString).withUTF8Buffer { put($0, at: at) }
            at = put(attrs, at: at)
        }
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
        var timeEnd = end
        if start < end, let base = text.baseAddress, let found = memchr(base + start, Int32(tab), end - start) {
            timeEnd = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        let streamKeyStart = timeEnd + 1
        let streamStart = streamKeyStart + streamKeyLength
        let streamEnd = streamStart + 6
        let stream = FieldValue(textKey: streamKeyStart..<streamStart, range: streamStart..<streamEnd)
        let attrsKeyStart = streamEnd + 1
        var attrs: FieldValue?
        if attrsKeyStart < end {
            let attrsStart = attrsKeyStart + attrsKeyLength
            attrs = FieldValue(textKey: attrsKeyStart..<attrsStart, range: attrsStart..<end, kind: .object)
        }
        return Parts(time: start..<timeEnd, stream: stream, attrs: attrs)
    }
}
