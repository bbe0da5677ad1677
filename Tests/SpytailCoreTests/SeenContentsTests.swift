import Testing
import SpytailCore

struct SeenContentsTests {
    /// A chain not noted is saved only when its history was cut short and some of it was read; a noted one always
    /// (an empty list says nothing else was seen); forgetting a path forgets that too.
    @Test func aHistoryCutShortIsSavedWithWhatItRead() {
        var seen = SeenContents()
        let a = Fingerprint(value: 1)
        seen.remember(a, under: "/l/cut.log")
        seen.remember(a, under: "/l/other.log")
        seen.noteHistoryCutShort(of: "/l/cut.log")
        seen.noteHistoryCutShort(of: "/l/none.log")  // cut at its first copy: nothing read
        seen.noteChain(of: "/l/noted.log")
        let paths = seen.chainsNoted.union(seen.historiesCutShort).union(["/l/other.log"])
        #expect(seen.saved(for: paths) == ["/l/cut.log": [SavedPositions.Seen(a)], "/l/noted.log": []])
        var restored = SeenContents()
        restored.restore(seen.saved(for: paths))
        #expect(restored.knownContents(under: "/l/cut.log") == [SavedPositions.Seen(a)], "a restart knows the chain")
        seen.forget("/l/cut.log")
        #expect(seen.saved(for: paths) == ["/l/noted.log": []])
    }

    @Test func contentIsSeenUnderItsLivePathOnlyAndTheNewestAreKept() {
        var seen = SeenContents(perPath: 3)
        seen.remember(nil, under: "/l/a.log")
        #expect(seen.paths.isEmpty)
        for value in 1...4 { seen.remember(Fingerprint(value: UInt64(value)), under: "/l/a.log") }
        seen.remember(Fingerprint(value: 4), under: "/l/a.log")  // again: not a second place
        seen.remember(Fingerprint(value: 1), under: "/l/b.log")
        #expect(!seen.contains(Fingerprint(value: 1), under: "/l/a.log"))  // the oldest went past the bound
        #expect([2, 3, 4].allSatisfy { seen.contains(Fingerprint(value: UInt64($0)), under: "/l/a.log") })
        #expect(seen.contains(Fingerprint(value: 1), under: "/l/b.log"))
        #expect(!seen.contains(Fingerprint(value: 2), under: "/l/b.log"))
        #expect(Set(seen.paths) == ["/l/a.log", "/l/b.log"])
    }

    @Test func howFarALetGoContentWasReadIsKeptPerLivePathAndBounded() {
        var seen = SeenContents(perPath: 2)
        let a = Fingerprint(value: 1), b = Fingerprint(value: 2), c = Fingerprint(value: 3)
        seen.remember(a, under: "/l/a.log", readTo: 100)
        #expect(seen.readOffset(of: a, under: "/l/a.log") == 100)
        #expect(seen.contains(a, under: "/l/a.log"))
        #expect(seen.readOffset(of: a, under: "/l/b.log") == nil)
        seen.remember(a, under: "/l/a.log", readTo: 250)  // read further later: the newest offset counts
        #expect(seen.readOffset(of: a, under: "/l/a.log") == 250)
        seen.remember(b, under: "/l/a.log", readTo: 10)
        seen.remember(c, under: "/l/a.log", readTo: 20)
        #expect(seen.readOffset(of: c, under: "/l/a.log") == 20)
        #expect([a, b].filter { seen.readOffset(of: $0, under: "/l/a.log") != nil }.count == 1, "two offsets kept at most")
        seen.remember(b, under: "/l/a.log")
        seen.noteChain(of: "/l/a.log")
        #expect(seen.chainsNoted == ["/l/a.log"])
    }

    /// What is saved with the checkpoints: only paths whose chain is known (an empty list says so too), with the
    /// offsets of contents let go part-way; restored, the path is known again; forgotten, nothing of it is left.
    @Test func savedRestoredAndForgotten() {
        var seen = SeenContents()
        let a = Fingerprint(value: 1), b = Fingerprint(value: 2)
        seen.remember(a, under: "/l/a.log", readTo: 40)
        seen.remember(b, under: "/l/a.log")
        seen.remember(a, under: "/l/unknown.log")  // remembered, but its chain was never noted
        seen.noteChain(of: "/l/a.log")
        seen.noteChain(of: "/l/empty.log")
        let saved = seen.saved(for: ["/l/a.log", "/l/empty.log", "/l/unknown.log", "/l/never.log"])
        #expect(saved == ["/l/a.log": [.init(a, readTo: 40), .init(b)], "/l/empty.log": []])
        #expect(seen.knownContents(under: "/l/unknown.log") == nil)

        var next = SeenContents()
        next.restore(saved)
        #expect(next.knownContents(under: "/l/a.log") == [.init(a, readTo: 40), .init(b)])
        #expect(next.knownContents(under: "/l/empty.log") == [])
        #expect(next.readOffset(of: a, under: "/l/a.log") == 40)
        next.forget("/l/a.log")
        #expect(next.knownContents(under: "/l/a.log") == nil)
        #expect(!next.contains(a, under: "/l/a.log") && next.readOffset(of: a, under: "/l/a.log") == nil)
    }

    /// Whether a copy's content not among what was seen under a path must be new: the chain was noted and
    /// nothing seen there was dropped for the bound.
    @Test func whatWasSeenIsWholeWhileTheChainIsNotedAndNothingWasDropped() {
        var seen = SeenContents(perPath: 2)
        seen.remember(Fingerprint(value: 1), under: "/l/a.log")
        #expect(!seen.isWhole(under: "/l/a.log"))  // not noted: what came before this run is not known
        seen.noteChain(of: "/l/a.log")
        #expect(seen.isWhole(under: "/l/a.log") && !seen.isWhole(under: "/l/b.log"))
        seen.remember(Fingerprint(value: 2), under: "/l/a.log")
        #expect(!seen.isWhole(under: "/l/a.log"))  // at the bound: an older one may be gone
    }

    /// A copy read to its end is seen; its mark moves only if it had one (it was let go part-way before).
    @Test func readingACopyMovesOnlyAMarkItAlreadyHad() {
        var seen = SeenContents()
        seen.read(Fingerprint(value: 1), under: "/l/a.log", to: 300)
        #expect(seen.contains(Fingerprint(value: 1), under: "/l/a.log") && seen.readOffset(of: Fingerprint(value: 1), under: "/l/a.log") == nil)
        seen.remember(Fingerprint(value: 2), under: "/l/a.log", readTo: 100)
        seen.read(Fingerprint(value: 2), under: "/l/a.log", to: 250)
        #expect(seen.readOffset(of: Fingerprint(value: 2), under: "/l/a.log") == 250)
    }
}
