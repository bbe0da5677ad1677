import SpytailCore

/// Spy for `ByteWriter`: keeps every write, and can be scripted to fail.
public final class RecordingByteWriter: ByteWriter {
    public let name: String
    public private(set) var writes: [[UInt8]] = []
    public var writeError: SinkError?

    public init(name: String = "recording") { self.name = name }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        if let writeError { throw writeError }
        writes.append(Array(bytes))
    }

    /// Everything written, as text.
    public var text: String { String(decoding: writes.joined(), as: UTF8.self) }
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}
