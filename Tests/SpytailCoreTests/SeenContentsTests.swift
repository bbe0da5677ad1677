import Testing
import SpytailCore

struct SeenContentsTests {
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
}
