/// A whole one-line entry that a container joiner holds until the next line of its stream says whether it
/// continues: its text, then its envelope (`ContainerEnvelope`), as it will go out. The common case of a
/// container log, so its buffer is kept from line to line and written in place: no array append and removal
/// per line, which were a fifth of the reading thread's time. A Docker line's text decoded by the reader is
/// not even copied: the held line takes the reader's decode buffer and gives the reader its own.
struct HeldLine {
    /// `buffer.base[..<count]` is the line.
    private var buffer = ByteBuffer()
    private(set) var count = 0
    private(set) var textLength = 0
    private(set) var offset: Int64 = 0
    private(set) var truncated = false
    /// A line is held (an entry of one line is open).
    private(set) var isHeld = false

    /// Holds `read`'s text, cut on a UTF-8 boundary at `maxLineBytes` (`truncated` then), and its envelope.
    /// When the text lies in `reader`'s decode buffer with room after it for the envelope (a Docker line read as
    /// written), the buffers are exchanged; otherwise the text is copied.
    mutating func hold(_ read: ContainerLine, offset: Int64, truncated: Bool, maxLineBytes: Int, decodedBy reader: Unmanaged<ContainerLineReader>?) {
        let textLength = UTF8Validation.prefixLength(read.content, within: maxLineBytes)
        let need = textLength + ContainerEnvelope.length(time: read.time, attrs: read.attrs)
        let exchanged = reader?._withUnsafeGuaranteedRef { reader in
            guard read.content.baseAddress == UnsafePointer(reader.decoded.base), reader.decoded.capacity >= need else { return false }
            swap(&buffer, &reader.decoded)
            return true
        } ?? false
        if !exchanged {
            buffer.reserve(need)
            if let content = read.content.baseAddress, textLength > 0 { buffer.base.update(from: content, count: textLength) }
        }
        count = textLength + ContainerEnvelope.write(time: read.time, stream: read.stream, attrs: read.attrs, to: buffer.base + textLength)
        self.textLength = textLength
        self.offset = offset
        self.truncated = truncated || textLength < read.content.count
        isHeld = true
    }

    /// Hands the held line to `body` as it goes out (valid during the call).
    func withLine<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        let shape = ContainerShape(headLength: textLength, envelopeStart: textLength, lineCount: 1)
        try body(Line(bytes: UnsafeBufferPointer(start: buffer.base, count: count), offset: offset, truncated: truncated, container: shape))
    }

    /// The held line went out, or became an entry of more lines: nothing is held (the buffer stays).
    mutating func release() { isHeld = false }

    /// The text and the envelope as arrays, for an entry that is put together the general way.
    var text: [UInt8] { Array(UnsafeBufferPointer(start: buffer.base, count: textLength)) }
    var envelope: [UInt8] { Array(UnsafeBufferPointer(start: buffer.base + textLength, count: count - textLength)) }
}
