/// One physical line of a container runtime's log, read: its stream, its time, its text, and whether more
/// parts of the same line follow. The buffers point into the physical line or the reader's decode buffer and
/// are valid until the reader reads the next line.
///
/// Read once per physical line into a value the joiner owns (`ContainerLineReader.read(_:into:)`), not returned
/// through the reader's layers: each return copied it, and its optional `attrs` made it 57 bytes, copied with
/// misaligned moves that stalled on the stores before them.
public struct ContainerLine {
    public var stream: ContainerStream
    /// Another part of the same application line follows (CRI `P`, a Docker `log` without its `\n`).
    public var partial: Bool
    /// The runtime's RFC 3339 time, as written.
    public var time: UnsafeBufferPointer<UInt8>
    /// The application's text (Docker: decoded from its JSON string, without the final `\n`).
    public var content: UnsafeBufferPointer<UInt8>
    /// Docker's `attrs` object as written (labels, env, tag of `--log-opt`); empty when the line has none.
    public var attrsBytes: UnsafeBufferPointer<UInt8>

    /// Docker's `attrs` object as written, when the line has one.
    public var attrs: UnsafeBufferPointer<UInt8>? { attrsBytes.isEmpty ? nil : attrsBytes }

    public init(stream: ContainerStream, partial: Bool, time: UnsafeBufferPointer<UInt8>, content: UnsafeBufferPointer<UInt8>,
                attrs: UnsafeBufferPointer<UInt8>?) {
        self.stream = stream
        self.partial = partial
        self.time = time
        self.content = content
        attrsBytes = attrs ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// A line with nothing read yet, to read into.
    public static var unread: ContainerLine {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        return ContainerLine(stream: .stdout, partial: false, time: none, content: none, attrs: none)
    }
}
