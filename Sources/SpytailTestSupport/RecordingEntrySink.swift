import SpytailCore

/// Spy for `EntrySink`: records every entry and call, and can be scripted to fail.
public final class RecordingEntrySink: EntrySink {
    public private(set) var entries: [SpyEntry] = []
    public private(set) var consumeCallCount = 0
    public private(set) var flushCallCount = 0
    /// Thrown by `consume` while set.
    public var consumeError: SinkError?
    /// Thrown by `flush` while set.
    public var flushError: SinkError?

    public init() {}

    public func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        consumeCallCount += 1
        if let consumeError { throw consumeError }
        entries.append(copy entry)
    }

    public func flush() throws(SinkError) {
        flushCallCount += 1
        if let flushError { throw flushError }
    }

    public var messages: [String] { entries.map(\.messageString) }
}
