import Glibc

/// What a `clickhouse` output holds between the pipeline and the server: the batch being filled and the
/// sealed batches in order (the first one is the one being sent). Counts records by their newlines: the
/// row formatter ends every row with one and escapes the rest. Bounded by `bufferMaxRecords` unless
/// told to take everything (a reload hands it all over). Not thread-safe: its writer guards it.
struct ClickHouseBuffer {
    struct Batch {
        var bytes: [UInt8] = []
        var records = 0
    }

    let batchMaxRecords: Int
    let bufferMaxRecords: Int
    private(set) var open = Batch()
    /// When the open batch got its first record (nil: it is empty).
    private(set) var openedAt: ContinuousClock.Instant?
    private(set) var sealed: [Batch] = []
    /// Records in the open and sealed batches.
    private(set) var records = 0
    var unbounded = false

    init(batchMaxRecords: Int, bufferMaxRecords: Int) {
        self.batchMaxRecords = batchMaxRecords
        self.bufferMaxRecords = bufferMaxRecords
    }

    var isEmpty: Bool { records == 0 && open.bytes.isEmpty }

    /// Takes whole rows from `bytes` while there is room; returns the bytes and records taken (the rest
    /// waits for room). A row cut at the end of `bytes` is kept open until its newline comes.
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, now: ContinuousClock.Instant) -> (bytes: Int, records: Int) {
        var room = unbounded ? Int.max : bufferMaxRecords - records
        var start = 0, i = 0, taken = 0
        while i < bytes.count {
            guard room > 0 else { break }
            guard let newline = Self.firstNewline(bytes, from: i) else {
                i = bytes.count  // an unfinished row: taken, counted when it ends
                break
            }
            i = newline + 1
            room -= 1
            taken += 1
            open.records += 1
            if openedAt == nil { openedAt = now }
            if open.records >= batchMaxRecords {
                open.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                start = i
                seal()
            }
        }
        open.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
        if openedAt == nil && !open.bytes.isEmpty { openedAt = now }
        records += taken
        return (i, taken)
    }

    /// Seals the open batch when it holds whole rows and is due (`batchMaxMs` after its first row) or
    /// `force`d (a stop). Returns whether a batch is ready to send.
    mutating func sealIfDue(now: ContinuousClock.Instant, maxAge: Duration, force: Bool) -> Bool {
        if let openedAt, open.records > 0, open.bytes.last == UInt8(ascii: "\n"), force || now - openedAt >= maxAge { seal() }
        return !sealed.isEmpty
    }

    /// When the open batch is due (nil: empty).
    func openDeadline(maxAge: Duration) -> ContinuousClock.Instant? { openedAt.map { $0 + maxAge } }

    /// The first sealed batch was acknowledged.
    mutating func removeFirst() {
        records -= sealed.removeFirst().records
    }

    /// Everything, for the output that takes this one over; leaves the buffer empty.
    mutating func handOver() -> ClickHouseBuffer {
        if open.records > 0 { seal() }
        let all = self
        sealed = []
        open = Batch()
        openedAt = nil
        records = 0
        return all
    }

    /// Takes the batches of `other` (an output before a reload) in front of its own.
    mutating func adopt(_ other: ClickHouseBuffer) {
        sealed = other.sealed + sealed
        records += other.sealed.reduce(0) { $0 + $1.records }
        if !other.open.bytes.isEmpty {  // an unfinished row: continued by this output's first write
            open.bytes = other.open.bytes + open.bytes
            open.records += other.open.records
            records += other.open.records
            openedAt = openedAt ?? other.openedAt
        }
    }

    private mutating func seal() {
        sealed.append(open)
        open = Batch()
        openedAt = nil
    }

    private static func firstNewline(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
