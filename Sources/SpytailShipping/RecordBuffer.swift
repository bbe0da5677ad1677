/// What a batching output holds between the pipeline and its destination: the batch being filled and the
/// sealed batches in order (the first one is the one being sent). Bounded by `bufferMaxRecords` unless
/// told to take everything (a reload hands it all over). A record cut at the end of a write is carried
/// until the rest comes. Time is the delivery's own (`now` since the output's origin). Not thread-safe: its
/// output guards it.
struct RecordBuffer {
    struct Batch: Equatable {
        var bytes: [UInt8] = []
        var records = 0
    }

    let framing: RecordFraming
    let batchMaxRecords: Int
    let bufferMaxRecords: Int
    private(set) var open = Batch()
    /// When the open batch got its first record (nil: it is empty).
    private(set) var openedAt: Duration?
    private(set) var sealed: [Batch] = []
    /// Records in the open and sealed batches.
    private(set) var records = 0
    /// The start of a record whose end has not come yet.
    private(set) var carry: [UInt8] = []
    var unbounded = false

    init(framing: RecordFraming = .newline, batchMaxRecords: Int, bufferMaxRecords: Int) {
        self.framing = framing
        self.batchMaxRecords = batchMaxRecords
        self.bufferMaxRecords = bufferMaxRecords
    }

    var isEmpty: Bool { records == 0 && carry.isEmpty }

    /// Takes whole records from `bytes` while there is room; returns the bytes and records taken (the rest
    /// waits for room).
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, now: Duration) -> (bytes: Int, records: Int) {
        guard carry.isEmpty else {  // rare: the last write ended inside a record
            let joined = carry + Array(bytes)
            let carried = carry.count
            carry = []
            let taken = joined.withUnsafeBufferPointer { take($0, now: now) }
            return (max(0, taken.bytes - carried), taken.records)
        }
        var room = unbounded ? Int.max : bufferMaxRecords - records
        var start = 0, i = 0, taken = 0
        while i < bytes.count, room > 0 {
            guard let end = framing.recordEnd(bytes, from: i) else {
                carry = Array(bytes[i...])
                open.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                records += taken
                if openedAt == nil && open.records > 0 { openedAt = now }
                return (bytes.count, taken)
            }
            i = end
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
        records += taken
        return (i, taken)
    }

    /// Seals the open batch when it is due (`maxAge` after its first record) or `force`d (a stop).
    /// Returns whether a batch is ready to send.
    mutating func sealIfDue(now: Duration, maxAge: Duration, force: Bool) -> Bool {
        if let openedAt, open.records > 0, force || now - openedAt >= maxAge { seal() }
        return !sealed.isEmpty
    }

    /// When the open batch is due (nil: empty).
    func openDeadline(maxAge: Duration) -> Duration? { openedAt.map { $0 + maxAge } }

    /// The first sealed batch was acknowledged.
    mutating func removeFirst() {
        records -= sealed.removeFirst().records
    }

    /// Everything, for the output that takes this one over; leaves the buffer empty.
    mutating func handOver() -> RecordBuffer {
        if open.records > 0 { seal() }
        let all = self
        sealed = []
        open = Batch()
        openedAt = nil
        records = 0
        carry = []
        return all
    }

    /// Takes the batches of `other` (an output before a reload) in front of its own.
    mutating func adopt(_ other: RecordBuffer) {
        sealed = other.sealed + sealed
        records += other.records
        carry = other.carry + carry
    }

    private mutating func seal() {
        sealed.append(open)
        open = Batch()
        openedAt = nil
    }
}
