/// An output: formats entries with its strategy into a reused buffer and hands the buffer to its
/// writer in batches of `batchBytes`.
public final class FormattingSink: EntrySink {
    public let formatter: any EntryFormatter
    public let writer: any ByteWriter
    let buffer: OutputBuffer
    let batchBytes: Int

    public init(formatter: any EntryFormatter, writer: any ByteWriter, batchBytes: Int = 64 * 1024) {
        self.formatter = formatter
        self.writer = writer
        self.batchBytes = batchBytes
        buffer = OutputBuffer(capacity: batchBytes + 4096)
    }

    /// Why the destination took no more; the bytes wait here until `flush()` succeeds.
    public private(set) var stall: SinkError?

    public func consume(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        formatter.format(entry, text: text, into: buffer)
        guard buffer.count >= batchBytes, stall == nil else { return }
        do {
            try flush()
        } catch where error.cause.pausesReading {
            // Keep buffering: the owner sees `stall`, stops reading, and retries `flush()` later.
        }
    }

    /// Writes what is buffered. After a failure, exactly the bytes that did not reach the destination
    /// stay buffered, so a retry continues the output byte for byte.
    public func flush() throws(SinkError) {
        guard buffer.count > 0 else {
            stall = nil
            return
        }
        do {
            try writer.write(buffer.bytes)
        } catch {
            buffer.removeFirst(error.written)
            stall = error.cause.pausesReading ? error : nil
            throw error
        }
        buffer.removeAll()
        stall = nil
    }

    public func sync() throws(SinkError) { try writer.sync() }
}
