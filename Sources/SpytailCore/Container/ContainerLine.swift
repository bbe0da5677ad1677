/// One physical line of a container runtime's log, read: its stream, its time, its text, and whether more
/// parts of the same line follow. The buffers point into the physical line or the reader's decode buffer and
/// are valid until the reader reads the next line.
public struct ContainerLine {
    public var stream: ContainerStream
    /// Another part of the same application line follows (CRI `P`, a Docker `log` without its `\n`).
    public var partial: Bool
    /// The runtime's RFC 3339 time, as written.
    public var time: UnsafeBufferPointer<UInt8>
    /// The application's text (Docker: decoded from its JSON string, without the final `\n`).
    public var content: UnsafeBufferPointer<UInt8>
    /// Docker's `attrs` object as written (labels, env, tag of `--log-opt`), when the line has one.
    public var attrs: UnsafeBufferPointer<UInt8>?
}
