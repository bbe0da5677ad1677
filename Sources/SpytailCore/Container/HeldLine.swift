/// A whole one-line entry that a container joiner holds until the next line of its stream says whether it
/// continues: its text, then its envelope (`ContainerEnvelope`), as it will go out. The common case of a
/// container log, so its buffer is kept from line to line (sized to the longest line seen) and written in
/// place: no array append and removal per line, which were a fifth of the reading thread's time.
struct HeldLine {
    /// `bytes[..<count]` is the line; the array's own count is only the buffer's size.
    private var bytes: [UInt8] = []
    private(set) var count = 0
    private(set) var textLength = 0
    private(set) var offset: Int64 = 0
    private(set) var truncated = false
    /// A line is held (an entry of one line is open).
    private(set) var isHeld = false

    /// Holds `read`'s text, cut on a UTF-8 boundary at `maxLineBytes` (`truncated` then), and its envelope.
    mutating func hold(_ read: ContainerLine, offset: Int64, truncated: Bool, maxLineBytes: Int) {
        let textLength = UTF8Validation.prefixLength(read.content, within: maxLineBytes)
        let need = textLength + ContainerEnvelope.length(time: read.time, attrs: read.attrs)
        if bytes.count < need { bytes.append(contentsOf: repeatElement(0, count: max(need, 2 * bytes.count) - bytes.count)) }
        count = bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            if let content = read.content.baseAddress, textLength > 0 { base.update(from: content, count: textLength) }
            return textLength + ContainerEnvelope.write(time: read.time, stream: read.stream, attrs: read.attrs, to: base + textLength)
        }
        self.textLength = textLength
        self.offset = offset
        self.truncated = truncated || textLength < read.content.count
        isHeld = true
    }

    /// Hands the held line to `body` as it goes out (valid during the call).
    func withLine<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        let shape = ContainerShape(headLength: textLength, envelopeStart: textLength, lineCount: 1)
        let (count, offset, truncated) = (count, offset, truncated)
        try bytes.withUnsafeBufferPointer { (buffer) throws(E) in
            try body(Line(bytes: UnsafeBufferPointer(rebasing: buffer[..<count]), offset: offset, truncated: truncated, container: shape))
        }
    }

    /// The held line went out, or became an entry of more lines: nothing is held (the buffer stays).
    mutating func release() { isHeld = false }

    /// The text and the envelope as arrays, for an entry that is put together the general way.
    var text: [UInt8] { Array(bytes[..<textLength]) }
    var envelope: [UInt8] { Array(bytes[textLength..<count]) }
}
