import Testing
@testable import SpytailCore

/// The explorer's index: rows ordered by time across files (stable), entries without a time next to their
/// neighbours, windows by binary search, context within a file, the histogram and the facets.
struct HistoryIndexTests {
    static func file(_ name: String, source: Int = 0) -> SourceFile {
        SourceFile(path: name, fingerprint: Fingerprint(value: UInt64(name.utf8.count)), source: source)
    }

    static let s: Int64 = 1_000_000_000

    /// Two files whose times interleave; `b` has an entry without a time, and one that leads without one.
    static func twoFiles() -> HistoryIndex {
        var builder = HistoryIndexBuilder()
        builder.startFile(file("a.log"))
        builder.add(offset: 0, time: 10 * s, category: 0, tags: TagSet())
        builder.add(offset: 100, time: 20 * s, category: 1, tags: TagSet(bits: 0b01))
        builder.add(offset: 200, time: 30 * s, category: 0, tags: TagSet())
        builder.endFile(size: 300)
        builder.startFile(file("bb.log", source: 1))
        builder.add(offset: 0, time: nil, category: 1, tags: TagSet())           // leads: takes 15 s
        builder.add(offset: 50, time: 15 * s, category: 1, tags: TagSet(bits: 0b11))
        builder.add(offset: 90, time: nil, category: 0, tags: TagSet())          // follows: takes 15 s
        builder.add(offset: 120, time: 20 * s, category: 0, tags: TagSet())      // equal to a.log's: after it
        builder.endFile(size: 160)
        return builder.build()
    }

    func order(_ index: HistoryIndex) -> [String] {
        (0..<index.count).map { "\(index.files[index.file($0)].path)@\(index.offsets[$0])" }
    }

    @Test func rowsAreOrderedByTimeStablyAndUntimedEntriesStayWithTheirNeighbours() {
        let index = Self.twoFiles()
        #expect(order(index) == ["a.log@0", "bb.log@0", "bb.log@50", "bb.log@90", "a.log@100", "bb.log@120", "a.log@200"])
        #expect(index.times == [10, 15, 15, 15, 20, 20, 30].map { $0 * Self.s })
        #expect(index.span == 10 * Self.s...30 * Self.s)
        #expect(index.fileSizes == [300, 160])
    }

    @Test func aWindowIsARangeOfRowsWithAnExclusiveEnd() {
        let index = Self.twoFiles()
        #expect(index.rows(from: 15 * Self.s, to: 20 * Self.s) == 1..<4)
        #expect(index.rows(from: 20 * Self.s, to: nil) == 4..<7)
        #expect(index.rows(from: nil, to: 10 * Self.s) == 0..<0)
        #expect(index.rows(from: 31 * Self.s, to: 40 * Self.s).isEmpty)
        #expect(index.rows(from: 25 * Self.s, to: 12 * Self.s).isEmpty)
    }

    @Test func contextWalksTheEntrysOwnFileInOffsetOrder() {
        let index = Self.twoFiles()
        let row = index.row(file: 1, offset: 90)!
        let context = index.context(of: row, before: 5, after: 1).map { index.offsets[$0] }
        #expect(context == [0, 50, 90, 120])
        #expect(index.context(of: index.row(file: 0, offset: 0)!, before: 2, after: 1).map { index.offsets[$0] } == [0, 100])
        #expect(index.row(file: 0, offset: 150) == nil)
        #expect(index.row(file: 7, offset: 0) == nil)
    }

    @Test func theHistogramCountsByBucketAndCategory() {
        let index = Self.twoFiles()
        let all = TimeHistogram(index, from: nil, to: nil, maxBuckets: 4, categoryCount: 2)
        #expect(all.width == 10 * Self.s && all.start == 10 * Self.s)
        #expect(all.counts == [[2, 2], [1, 1], [1, 0]])
        #expect(all.total == 7)
        // A window, and only a search's rows.
        let window = TimeHistogram(index, from: 15 * Self.s, to: 21 * Self.s, maxBuckets: 6, categoryCount: 2)
        #expect(window.width == Self.s && window.start == 15 * Self.s && window.counts.count == 6)
        #expect(window.counts[0] == [1, 2] && window.counts[5] == [1, 1] && window.total == 5)
        let matched = TimeHistogram(index, from: nil, to: nil, matched: [1, 6], maxBuckets: 4, categoryCount: 2)
        #expect(matched.counts == [[0, 1], [0, 0], [1, 0]])
    }

    @Test func bucketWidthsAreRoundFromMillisecondsToYears() {
        var builder = HistoryIndexBuilder()
        builder.startFile(Self.file("x"))
        builder.add(offset: 0, time: -1_500_000, category: 0, tags: TagSet())  // before 1970: floors below
        builder.add(offset: 1, time: 1_000_000, category: 0, tags: TagSet())
        let index = builder.build()
        let fine = TimeHistogram(index, from: nil, to: nil, maxBuckets: 10, categoryCount: 1)
        #expect(fine.width == 1_000_000 && fine.start == -2_000_000 && fine.total == 2)
        #expect(TimeHistogram.floor(-1, to: 10) == -10 && TimeHistogram.floor(19, to: 10) == 10)
    }

    @Test func facetsCountCategoriesTagsSourcesAndFiles() {
        let index = Self.twoFiles()
        let facets = HistoryFacets(index, rows: 0..<index.count)
        #expect(facets.rows == 7)
        #expect(facets.categories == [0: 4, 1: 3])
        #expect(facets.tags == [0: 2, 1: 1])
        #expect(facets.sources == [0: 3, 1: 4])
        #expect(facets.files == [0: 3, 1: 4])
        let searched = HistoryFacets(index, rows: 0..<4, matched: [1, 2, 5])
        #expect(searched.rows == 2 && searched.files == [1: 2])
    }

    @Test func aGapRowIsKeptWithItsReportAfterItsFile() {
        var builder = HistoryIndexBuilder()
        let file = Self.file("c.gz")
        builder.startFile(file)
        builder.add(offset: 0, time: 5 * Self.s, category: 0, tags: TagSet())
        builder.addGap(GapReport(file: file, offset: 64, bytes: nil, reason: .damaged), category: 2)
        builder.endFile(size: 64)
        let index = builder.build()
        #expect(index.count == 2 && index.times[1] == 5 * Self.s && index.kind(1).category == 2)
        #expect(index.gaps[1]?.offset == 64 && index.gaps[0] == nil)
    }

    @Test func kindsAreSharedByRowsWithTheSameFileCategoryAndTags() {
        let index = Self.twoFiles()
        #expect(index.kinds.count == 5)
        #expect(index.kind(0) == HistoryIndex.Kind(file: 0, category: 0, tags: 0))
        #expect(index.kindIndices[0] == index.kindIndices[6], "a.log@0 and a.log@200")
    }

    @Test func aFileWithoutAnyTimeKeepsItsOrderAtTheStart() {
        var builder = HistoryIndexBuilder()
        builder.startFile(Self.file("timed"))
        builder.add(offset: 0, time: 7, category: 0, tags: TagSet())
        builder.startFile(Self.file("untimed"))
        builder.add(offset: 0, time: nil, category: 0, tags: TagSet())
        builder.add(offset: 9, time: nil, category: 0, tags: TagSet())
        let index = builder.build()
        #expect(order(index) == ["untimed@0", "untimed@9", "timed@0"])
        #expect(index.rowsByFile == [[2], [0, 1]])
    }

    @Test func aSortThatIsNeededKeepsEqualTimesInTheirOrder() {
        #expect(HistoryIndexBuilder.stableOrder([3, 1, 2, 1, 3]) == [1, 3, 2, 0, 4])
        #expect(HistoryIndexBuilder.stableOrder([1, 1, 2]) == [0, 1, 2])
        #expect(HistoryIndexBuilder.stableOrder([]) == [])
    }
}
