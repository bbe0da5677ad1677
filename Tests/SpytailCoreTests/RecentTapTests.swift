import Testing
@testable import SpytailCore
import SpytailTestSupport

/// What a pipeline hands to viewers: the jsonl record and the raw message of each exported entry, the newest
/// `capacity` of them, with a count of the older ones dropped before a take.
struct RecentTapTests {
    static let log = """
        2026-11-20T10:00:00Z INFO [tca] Store: heartbeat 1
        2026-11-20T10:00:01Z ERROR [db] query "failed"
        2026-11-20T10:00:02Z DEBUG noise
        2026-11-20T10:00:03Z WARN [tca] Store: tick

        """

    func tapped(capacity: Int, filters: String = "[]") throws -> (RecentBatch?, Int) {
        let compiled = try Fixtures.compiled(filters: filters)
        let pipeline = EntryPipeline(config: compiled, sinks: [RecordingEntrySink()], window: nil)
        let tap = RecentTap(vocabulary: compiled.rules.vocabulary, capacity: capacity)
        pipeline.tap = tap
        try Fixtures.run(Self.log, pipeline: pipeline)
        let (batch, dropped) = tap.take()
        #expect(tap.take().batch == nil, "a take empties the tap")
        return (batch, dropped)
    }

    func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func eachEntryKeepsItsRecordAndRawMessage() throws {
        let (batch, dropped) = try tapped(capacity: 10, filters: #"[{"exclude": {"category": "debug"}}]"#)
        let b = try #require(batch)
        #expect(dropped == 0)
        #expect(b.count == 3, "the filters' exclusions are not tapped")
        #expect((0..<b.count).map { text(b.message($0)) } == ["Store: heartbeat 1", #"query "failed""#, "Store: tick"])
        let record = text(b.record(1))
        #expect(record.hasPrefix(#"{"id":""#) && record.hasSuffix("}") && !record.hasSuffix("\n"), "\(record)")
        #expect(record.contains(#""message":"query \"failed\"""#), "\(record)")
        let vocabulary = try Fixtures.compiled().rules.vocabulary
        #expect(vocabulary.categories[b.items[1].category].name == "error")
        #expect(!b.items[0].tags.isEmpty && b.items[2].tags == b.items[0].tags)
    }

    @Test func onlyTheNewestCapacityAreKeptAndTheRestCounted() throws {
        let (batch, dropped) = try tapped(capacity: 1)
        let b = try #require(batch)
        #expect(b.count == 1 && dropped == 3)
        #expect(text(b.message(0)) == "Store: tick")
        #expect(text(b.record(0)).contains("Store: tick"))
    }

    /// In a block (a backlog, `scan`'s path) the tap takes the record a jsonl output just formatted instead of
    /// formatting the entry again; with a `where` on that output, or another format, it formats its own. The
    /// viewers get the same bytes either way.
    @Test func theTapTakesAJsonlOutputsRecordAsItIsAndGetsTheSameBytes() throws {
        let plain = try Fixtures.compiled()
        let vocabulary = plain.rules.vocabulary
        let guarded = try Fixtures.compiled(outputs: #"[{"type": "stdout", "where": {"category": "error"}}]"#)
        let cases: [(name: String, config: CompiledConfig, sink: any EntrySink, reuses: Bool)] = [
            ("formatted by the tap", plain, RecordingEntrySink(), false),
            ("a jsonl block output", plain, BufferingSink(formatter: JSONLinesFormatter(vocabulary: vocabulary)), true),
            ("a jsonl block output with a where", guarded, BufferingSink(formatter: JSONLinesFormatter(vocabulary: vocabulary)), false),
            ("a logfmt block output", plain, BufferingSink(formatter: LogfmtFormatter(vocabulary: vocabulary)), false),
        ]
        var batches: [RecentBatch] = []
        for c in cases {
            let pipeline = EntryPipeline(config: c.config, sinks: [c.sink], window: nil)
            pipeline.tap = RecentTap(vocabulary: vocabulary, capacity: 10)
            #expect(pipeline.reusesOutputRecords == c.reuses, "\(c.name)")
            try Fixtures.run(Self.log, pipeline: pipeline)
            batches.append(try #require(pipeline.tap?.take().batch, "\(c.name)"))
        }
        #expect(batches[0].count == 4)
        for (c, batch) in zip(cases, batches).dropFirst() {
            #expect(batch.bytes == batches[0].bytes, "\(c.name)")
            #expect(batch.items.map(\.record) == batches[0].items.map(\.record), "\(c.name)")
            #expect(batch.items.map(\.message) == batches[0].items.map(\.message), "\(c.name)")
        }
    }

    /// A message JSON writes as it is is found inside its record and not stored twice; one JSON had to escape
    /// (or one with a backslash, which could hide an escaped quote) is kept as a copy of the raw bytes.
    @Test func aMessageWrittenAsItIsIsFoundInItsRecordOtherwiseCopied() throws {
        func found(_ message: String, _ record: String) -> String? {
            let m = Array(message.utf8), r = Array(record.utf8)
            let range = m.withUnsafeBufferPointer { mp in r.withUnsafeBufferPointer { RecentTap.verbatim(mp, in: $0) } }
            return range.map { String(decoding: r[$0], as: UTF8.self) }
        }
        #expect(found("Store: tick", #"{"id":"a","tags":["message"],"message":"Store: tick","detail":null}"#) == "Store: tick")
        #expect(found("", #"{"id":"a","message":"","detail":null}"#) == "")
        #expect(found(#"say "hi""#, #"{"id":"a","message":"say \"hi\"","detail":null}"#) == nil)
        #expect(found(#"a\"#, #"{"id":"a","message":"a\\","detail":null}"#) == nil)
        #expect(found("ab", #"{"id":"a","message":"abc"}"#) == nil, "a prefix of the value is not the value")
        #expect(found("x", #"{"id":"a","detail":"x"}"#) == nil, "no message key")
        #expect(found("tick", #"{"id":"\"message\":\"tick\"","message":"tock"}"#) == nil, "an escaped key inside a value is not the key")

        let (batch, _) = try tapped(capacity: 10)
        let b = try #require(batch)
        let records = (0..<b.count).map { b.record($0).count }.reduce(0, +)
        let quoted = #"query "failed""#.utf8.count
        #expect(b.bytes.count == records + quoted, "only the message JSON escaped is stored a second time")
        #expect((0..<b.count).map { text(b.message($0)) }.contains(#"query "failed""#))
        for index in 0..<b.count where text(b.message(index)) != #"query "failed""# {
            #expect(b.record(index).indices.contains(b.items[index].message.lowerBound), "message \(index) lies in its record")
        }
    }

    /// A burst fills the tap's buffers; the take after the next, smaller batch lets the extra room go.
    @Test func theRoomABurstLeftIsLetGoWhenBatchesAreSmallAgain() throws {
        let compiled = try Fixtures.compiled()
        let pipeline = EntryPipeline(config: compiled, sinks: [RecordingEntrySink()], window: nil)
        let tap = RecentTap(vocabulary: compiled.rules.vocabulary, capacity: 5000)
        pipeline.tap = tap
        let burst = (0..<5000).map { "2026-11-20T10:00:00Z INFO message number \($0) with some words to make it longer\n" }.joined()
        try Fixtures.run(burst, pipeline: pipeline)
        #expect(tap.take().batch?.count == 5000)
        #expect(tap.heldBytes >= 1_000_000, "the burst's room is kept for a batch like it: \(tap.heldBytes)")
        try Fixtures.run("2026-11-20T10:00:01Z INFO one more\n", pipeline: pipeline)
        #expect(tap.take().batch?.count == 1)
        #expect(tap.heldBytes < 1_000_000, "a small batch after the burst: the room goes (\(tap.heldBytes) bytes held)")
    }
}
