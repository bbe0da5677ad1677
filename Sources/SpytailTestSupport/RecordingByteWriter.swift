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
    /// The complete lines written (a last one without its `\n` yet is not), cut on bytes: fast in big tests.
    public var lines: [String] {
        Array(writes.joined()).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
