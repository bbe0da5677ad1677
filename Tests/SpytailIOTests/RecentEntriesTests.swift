import Testing
@testable import SpytailCore
@testable import SpytailIO

/// The numbered ring viewers read: batches in, windows out by number, `missed` for what fell out of it.
struct RecentEntriesTests {
    /// A batch of entries whose messages are `names` (records are `{"m":"NAME"}`).
    static func batch(_ names: [String]) -> RecentBatch {
        var bytes: [UInt8] = []
        var items: [RecentBatch.Item] = []
        for name in names {
            let start = bytes.count
            bytes += Array(#"{"m":"\#(name)"}"#.utf8)
            let message = bytes.count
            bytes += Array(name.utf8)
            items.append(RecentBatch.Item(category: 0, tags: TagSet(), source: SourceFile.unnamed, record: start..<message, message: message..<bytes.count))
        }
        return RecentBatch(bytes: bytes, items: items)
    }

    static func names(_ entries: [RecentEntry]) -> [String] { entries.map { String(decoding: $0.message, as: UTF8.self) } }

    @Test func entriesAreNumberedAcrossBatchesAndReadByNumber() {
        let ring = RecentEntries(capacity: 10)
        #expect(ring.newest == 0 && ring.entries(after: 0, limit: 5).entries.isEmpty)
        ring.append(Self.batch(["a", "b", "c"]))
        ring.append(Self.batch(["d", "e"]))
        #expect(ring.newest == 5)
        let window = ring.entries(after: 2, limit: 2)
        #expect(Self.names(window.entries) == ["c", "d"] && window.missed == 0 && window.through == 4)
        #expect(String(decoding: window.entries[1].record, as: UTF8.self) == #"{"m":"d"}"#)
        let newest = ring.newest(3)
        #expect(Self.names(newest.entries) == ["c", "d", "e"] && newest.through == 5)
    }

    @Test func whatFellOutOfTheRingIsCountedAsMissed() {
        let ring = RecentEntries(capacity: 4)
        ring.append(Self.batch(["a", "b", "c"]))
        ring.append(Self.batch(["d", "e", "f"]))
        // Numbers 1 and 2 are older than the newest four (3...6).
        let window = ring.entries(after: 0, limit: 10)
        #expect(Self.names(window.entries) == ["c", "d", "e", "f"] && window.missed == 2 && window.through == 6)
        #expect(Self.names(ring.newest(10).entries) == ["c", "d", "e", "f"])
        // Many batches later, old ones are gone and numbering goes on.
        for i in 0..<100 { ring.append(Self.batch(["x\(i)"])) }
        #expect(ring.newest == 106)
        #expect(Self.names(ring.newest(10).entries) == ["x96", "x97", "x98", "x99"])
        #expect(ring.entries(after: 100, limit: 10).missed == 2)
    }

    /// Appends a batch of `names` to `ring`, keeping no reference to it; the closure tells whether it still lives.
    static func appendWatched(_ names: [String], to ring: RecentEntries) -> () -> Bool {
        let batch = Self.batch(names)
        ring.append(batch)
        return { [weak batch] in batch != nil }
    }

    @Test func aBatchNoLongerHeldIsReleased() {
        let ring = RecentEntries(capacity: 4)
        let firstLives = Self.appendWatched(["a", "b"], to: ring)
        #expect(firstLives())
        for i in 0..<3 { ring.append(Self.batch(["x\(i)", "y\(i)"])) }
        #expect(!firstLives(), "a batch older than the newest `capacity` entries is freed, not kept until some later compaction")
        let window = ring.window(after: 0, limit: 10)
        #expect(window.segments.map(\.indices) == [0..<2, 0..<2] && window.missed == 4)
    }

    /// With many batches held, the ring compacts its slots only now and then (amortized); a batch that fell
    /// out must still be freed at once, or the ring keeps up to twice its capacity's memory.
    @Test func aBatchIsReleasedAtOnceEvenWhenItsSlotIsCompactedLater() {
        let ring = RecentEntries(capacity: 10)
        let firstLives = Self.appendWatched(["a", "b"], to: ring)
        for i in 0..<4 { ring.append(Self.batch(["x\(i)", "y\(i)"])) }
        #expect(firstLives() && ring.newest(10).entries.count == 10)
        ring.append(Self.batch(["z", "w"]))
        #expect(!firstLives())
        #expect(Self.names(ring.newest(10).entries) == ["x0", "y0", "x1", "y1", "x2", "y2", "x3", "y3", "z", "w"])
        #expect(ring.entries(after: 0, limit: 20).missed == 2)
    }

    @Test func droppedEntriesTakeNumbersButAreNotReturned() {
        let ring = RecentEntries(capacity: 10)
        ring.append(Self.batch(["a"]))
        ring.append(nil, dropped: 3)
        ring.append(Self.batch(["e"]))
        #expect(ring.newest == 5)
        let window = ring.entries(after: 0, limit: 10)
        #expect(Self.names(window.entries) == ["a", "e"] && window.through == 5)
    }

    @Test func aViewerIsWokenByAnAppend() async {
        let ring = RecentEntries(capacity: 10)
        let (id, wakeUps) = ring.join()
        ring.append(Self.batch(["a"]))
        var iterator = wakeUps.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        ring.leave(id)
        #expect(await iterator.next() == nil)
    }
}
