import Testing
@testable import SpytailCore

/// Which rotated copies went by unseen, from a chain's fingerprints and what was seen: no files.
struct UnseenCopiesTests {
    /// `app.log.4` … `app.log.1`, oldest first, each holding content n (nil: no fingerprint yet).
    static let chain = ["app.log.4", "app.log.3", "app.log.2", "app.log.1"]

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var prints: [String: UInt64] = ["app.log.4": 4, "app.log.3": 3, "app.log.2": 2, "app.log.1": 1]
        let seen: Set<UInt64>
        var through = 3
        var newestAlone = true
        var chainNoted = false
        var seenWhole = false
        let picked: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the newest seen: nothing", seen: [1, 2, 3, 4], picked: []),
        Case(name: "two went by after a seen one: both, oldest first", seen: [3], picked: ["app.log.2", "app.log.1"]),
        Case(name: "only older seen ones count back to the newest seen", seen: [4, 2], picked: ["app.log.1"]),
        Case(name: "none seen, just arrived: the newest alone", seen: [], picked: ["app.log.1"]),
        Case(name: "none seen, a bulk look: history, nothing", seen: [], newestAlone: false, picked: []),
        Case(name: "up to the arrived copy only: newer ones wait for their own arrival", seen: [4], through: 2,
             picked: ["app.log.3", "app.log.2"]),
        Case(name: "none seen, arrived copy not the newest: nothing", seen: [], through: 2, picked: []),
        Case(name: "a copy without a fingerprint is passed over", prints: ["app.log.4": 4, "app.log.3": 3, "app.log.1": 1],
             seen: [3], picked: ["app.log.1"]),
        Case(name: "an index outside the chain: nothing", seen: [], through: 7, picked: []),
        Case(name: "none seen, a bulk look, the chain noted at start: every copy, oldest first", seen: [], newestAlone: false,
             chainNoted: true, picked: ["app.log.4", "app.log.3", "app.log.2", "app.log.1"]),
        Case(name: "the chain noted: still only back to the newest seen", seen: [3], newestAlone: false, chainNoted: true,
             picked: ["app.log.2", "app.log.1"]),
        Case(name: "all that was seen known: an unseen copy older than a seen one too (empty when looked at, written later)",
             seen: [1, 3], newestAlone: false, chainNoted: true, seenWhole: true, picked: ["app.log.4", "app.log.2"]),
        Case(name: "all that was seen known, up to the arrived copy only", seen: [3], through: 2, chainNoted: true, seenWhole: true,
             picked: ["app.log.4", "app.log.2"]),
    ]

    @Test(arguments: cases)
    func picks(_ c: Case) {
        var looked: [String] = []
        let picked = UnseenCopies.pick(Self.chain, through: c.through, newestAlone: c.newestAlone, chainNoted: c.chainNoted,
                                       seenWhole: c.seenWhole, fingerprint: { looked.append($0); return c.prints[$0].map(Fingerprint.init(value:)) },
                                       seen: { c.seen.contains($0.value) })
        #expect(picked.map(\.path) == c.picked)
        #expect(picked.allSatisfy { c.prints[$0.path] == $0.fingerprint.value })
        if let newestSeen = Self.chain[...min(c.through, Self.chain.count - 1)].lastIndex(where: { c.prints[$0].map(c.seen.contains) == true }),
           c.through < Self.chain.count, !c.seenWhole {
            #expect(!looked.contains(where: { Self.chain.firstIndex(of: $0)! < newestSeen }), "no copy older than the newest seen is read")
        }
    }
}
