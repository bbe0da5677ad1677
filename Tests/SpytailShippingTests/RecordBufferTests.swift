import Testing
@testable import SpytailShipping

/// The buffer between the pipeline and a network destination: whole records, batches within `batchMaxRecords`, a bound
/// on what waits, sealing by age, and the hand-over to the output that replaces it on reload.
struct RecordBufferTests {
    let t0 = Duration.zero

    func rows(_ range: ClosedRange<Int>) -> [UInt8] { range.flatMap { Array("{\"n\":\($0)}\n".utf8) } }

    func take(_ buffer: inout RecordBuffer, _ bytes: [UInt8], at offset: Duration = .zero) -> (bytes: Int, records: Int) {
        bytes.withUnsafeBufferPointer { buffer.take($0, now: t0 + offset) }
    }

    @Test func batchesNeverExceedTheirLimit() {
        var buffer = RecordBuffer(batchMaxRecords: 3, bufferMaxRecords: 100)
        let bytes = rows(1...8)
        let taken = take(&buffer, bytes)
        #expect(taken == (bytes.count, 8))
        #expect(buffer.sealed.map(\.records) == [3, 3])
        #expect(buffer.sealed[0].bytes == rows(1...3) && buffer.sealed[1].bytes == rows(4...6))
        #expect(buffer.open.records == 2 && buffer.records == 8)
    }

    @Test func aFullBufferTakesWholeRowsUpToItsBound() {
        var buffer = RecordBuffer(batchMaxRecords: 2, bufferMaxRecords: 5)
        let bytes = rows(1...9)
        let taken = take(&buffer, bytes)
        #expect(taken.records == 5 && taken.bytes == rows(1...5).count)
        buffer.removeFirst()  // the first batch (2 rows) acknowledged: room for 2 more
        let rest = Array(bytes[taken.bytes...])
        let more = take(&buffer, rest)
        #expect(more.records == 2)
        #expect(buffer.records == 5)
    }

    @Test func theOpenBatchIsSealedWhenDueOrForced() {
        var buffer = RecordBuffer(batchMaxRecords: 100, bufferMaxRecords: 1000)
        _ = take(&buffer, rows(1...2))
        #expect(buffer.openDeadline(maxAge: .seconds(1)) == t0 + .seconds(1))
        let early = buffer.sealIfDue(now: t0 + .milliseconds(999), maxAge: .seconds(1), force: false)
        let due = buffer.sealIfDue(now: t0 + .seconds(1), maxAge: .seconds(1), force: false)
        #expect(!early && due)
        #expect(buffer.sealed.map(\.records) == [2] && buffer.openDeadline(maxAge: .seconds(1)) == nil)
        _ = take(&buffer, rows(3...3))
        let forced = buffer.sealIfDue(now: t0, maxAge: .seconds(1), force: true)
        #expect(forced)
        #expect(buffer.sealed.map(\.records) == [2, 1])
    }

    @Test func anUnfinishedRecordIsCarriedUntilItEnds() {
        var buffer = RecordBuffer(batchMaxRecords: 100, bufferMaxRecords: 1000)
        let bytes = rows(1...2)
        _ = take(&buffer, Array(bytes.prefix(bytes.count - 3)))
        #expect(buffer.records == 1)
        _ = take(&buffer, Array(bytes.suffix(3)))
        #expect(buffer.records == 2)
        let whole = buffer.sealIfDue(now: t0, maxAge: .seconds(1), force: true)
        #expect(whole)
        #expect(buffer.sealed[0].bytes == bytes)
    }

    @Test func octetCountedFramesKeepTheirNewlines() {
        var buffer = RecordBuffer(framing: .octetCounted, batchMaxRecords: 2, bufferMaxRecords: 100)
        let frames = Array("5 ab\ncd3 xyz11 hello\nworld".utf8)
        let taken = take(&buffer, frames)
        #expect(taken == (frames.count, 3))
        #expect(buffer.sealed.map(\.bytes) == [Array("5 ab\ncd3 xyz".utf8)])
        // A frame cut in its length or its body is carried.
        var cut = RecordBuffer(framing: .octetCounted, batchMaxRecords: 10, bufferMaxRecords: 100)
        _ = take(&cut, Array(frames.prefix(7)))
        _ = take(&cut, Array(frames[7..<14]))
        _ = take(&cut, Array(frames[14...]))
        _ = cut.sealIfDue(now: t0, maxAge: .seconds(1), force: true)
        #expect(cut.records == 3 && cut.sealed.flatMap(\.bytes) == frames)
    }

    @Test func unboundedTakesEverything() {
        var buffer = RecordBuffer(batchMaxRecords: 2, bufferMaxRecords: 3)
        buffer.unbounded = true
        let taken = take(&buffer, rows(1...10))
        #expect(taken.records == 10)
    }

    @Test func aReloadedOutputAdoptsTheBatchesInOrderBeforeItsOwn() {
        var old = RecordBuffer(batchMaxRecords: 2, bufferMaxRecords: 100)
        _ = take(&old, rows(1...3))
        var new = RecordBuffer(batchMaxRecords: 2, bufferMaxRecords: 100)
        new.adopt(old.handOver())
        #expect(old.isEmpty && old.sealed.isEmpty)
        _ = take(&new, rows(4...4))
        _ = new.sealIfDue(now: t0, maxAge: .seconds(1), force: true)
        #expect(new.sealed.flatMap(\.bytes) == rows(1...4))
        #expect(new.records == 4)
    }

    @Test func backoffGrowsToItsCapWithJitter() {
        var backoff = Backoff(initial: .milliseconds(100), cap: .seconds(1))
        var waits: [Duration] = []
        for _ in 0..<8 { waits.append(backoff.next()) }
        #expect(waits[0] >= .milliseconds(50) && waits[0] <= .milliseconds(100))
        #expect(waits.last! >= .milliseconds(500) && waits.last! <= .seconds(1))
        backoff.reset()
        #expect(backoff.next() <= .milliseconds(100))
    }
}
