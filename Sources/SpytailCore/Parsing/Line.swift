/// One physical line handed out by `LineSplitter`: its bytes (no `\n`, no trailing `\r`) are valid
/// only during the callback that receives it.
public struct Line {
    public var bytes: UnsafeBufferPointer<UInt8>
    /// Byte offset of the line's first byte in the (decompressed) stream.
    public var offset: Int64
    /// The line was longer than `maxLineBytes`; `bytes` holds its head, the rest was skipped.
    public var truncated: Bool

    public init(bytes: UnsafeBufferPointer<UInt8>, offset: Int64, truncated: Bool = false) {
        self.bytes = bytes
        self.offset = offset
        self.truncated = truncated
    }
}
