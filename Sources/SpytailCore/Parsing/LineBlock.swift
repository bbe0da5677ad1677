/// One line of a `LineBlock`: where its bytes are in the block, where it was in the file, and what the
/// reader already decided about it.
public struct LineRecord: Sendable, Equatable {
    public var start: Int
    public var length: Int
    /// Offset in the file's decompressed stream.
    public var offset: Int64
    public var truncated: Bool
    /// Joins the entry before it (the multiline rule matched and an entry was open).
    public var continuation: Bool
    /// A container joiner's line: the index of its layout in the block's `shapes`; -1 for any other line
    /// (kept out of the record so that a plain line's record stays 32 bytes).
    public var shape: Int32
}

/// A run of whole entries of one file, cut by the reader before a head line, so that any thread can
/// parse and format it on its own. Carries the formatted output of each route until it is written.
///
/// A block moves between threads through queues and semaphores that order every access; it is never
/// touched by two threads at once, hence `@unchecked Sendable`.
public final class LineBlock: @unchecked Sendable {
    public private(set) var file: SourceFile
    // Appended to once per line by the reader: unchecked exclusivity, as in `EntryPipeline` (the block is
    // owned by one thread at a time and no inout access to these escapes the methods below).
    @exclusivity(unchecked) public private(set) var bytes: [UInt8] = []
    @exclusivity(unchecked) public private(set) var lines: [LineRecord] = []
    /// The layouts of the container joiner's lines, in line order.
    @exclusivity(unchecked) public private(set) var shapes: [ContainerShape] = []
    /// Formatted output, one buffer per route, filled by the worker that parsed the block.
    public let outputs: [OutputBuffer]
    /// Entries copied for viewers by the worker's tap (`run` with the HTTP face), handed over in write order.
    public var recent: (batch: RecentBatch?, dropped: Int) = (nil, 0)

    public init(file: SourceFile, routes: Int, capacity: Int) {
        self.file = file
        outputs = (0..<routes).map { _ in OutputBuffer(capacity: capacity + capacity / 2) }
        bytes.reserveCapacity(capacity)
    }

    /// Empties the block for reuse with `file`.
    public func reset(for file: SourceFile) {
        self.file = file
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        shapes.removeAll(keepingCapacity: true)
        for output in outputs { output.removeAll() }
        recent = (nil, 0)
    }

    public func append(_ line: Line, continuation: Bool) {
        var shape: Int32 = -1
        if let container = line.container {
            shape = Int32(shapes.count)
            shapes.append(container)
        }
        lines.append(LineRecord(start: bytes.count, length: line.bytes.count, offset: line.offset,
                                truncated: line.truncated, continuation: continuation, shape: shape))
        bytes.append(contentsOf: line.bytes)
    }

    /// Line `index` as the reader handed it over, its bytes in `bytes` (the block's, borrowed).
    public func line(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Line {
        let record = lines[index]
        return Line(bytes: UnsafeBufferPointer(rebasing: bytes[record.start..<(record.start + record.length)]),
                    offset: record.offset, truncated: record.truncated,
                    container: record.shape < 0 ? nil : shapes[Int(record.shape)])
    }

    /// Drops line `index` and every line after it (the entry a live reader will read again).
    public func truncate(fromLine index: Int) {
        guard index < lines.count else { return }
        bytes.removeSubrange(lines[index].start...)
        if let shape = lines[index...].first(where: { $0.shape >= 0 })?.shape { shapes.removeSubrange(Int(shape)...) }
        lines.removeSubrange(index...)
    }

    public var isEmpty: Bool { lines.isEmpty }
    public var byteCount: Int { bytes.count }
}
