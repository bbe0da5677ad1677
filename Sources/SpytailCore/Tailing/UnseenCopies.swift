/// Which rotated copies of a live file hold content that went by while `run` looked away (created, written
/// and rotated between two looks): the decision of `run`'s unseen-rotation catch-up, with the files'
/// fingerprints read through `fingerprint` (lazily, newest first, stopping at the first seen one).
public enum UnseenCopies {
    public struct Copy: Sendable, Equatable {
        public let path: String
        public let fingerprint: Fingerprint

        public init(path: String, fingerprint: Fingerprint) {
            self.path = path
            self.fingerprint = fingerprint
        }
    }

    /// The copies of `chain` (oldest first) up to `index` newer than the newest one whose content was seen,
    /// oldest first. Copies newer than `index` wait for their own arrival (one may still be being written).
    /// Without any seen copy, only the newest copy counts, and only with `newestAlone` (it was just told to
    /// have arrived): older ones are history (renamed along by logrotate, say). A copy without a
    /// fingerprint (empty, unreadable) is passed over. `chainNoted`: the live path's chain was read or noted
    /// when first found in this run, so every copy with content not seen was written since: all of them count.
    /// `seenWhole` (noted, and nothing seen dropped for the bound): also those older than a seen copy — one
    /// empty when looked at and written later, say, by a writer that had not reopened, then rotated along.
    public static func pick(_ chain: [String], through index: Int, newestAlone: Bool, chainNoted: Bool = false,
                            seenWhole: Bool = false, fingerprint: (String) -> Fingerprint?, seen: (Fingerprint) -> Bool) -> [Copy] {
        guard chain.indices.contains(index) else { return [] }
        if seenWhole {
            return chain[...index].compactMap { copy in
                fingerprint(copy).flatMap { seen($0) ? nil : Copy(path: copy, fingerprint: $0) }
            }
        }
        var unseen: [Copy] = []
        for copy in chain[...index].reversed() {
            guard let print = fingerprint(copy) else { continue }
            if seen(print) { return unseen.reversed() }
            unseen.append(Copy(path: copy, fingerprint: print))
        }
        if chainNoted { return unseen.reversed() }
        guard newestAlone, index == chain.count - 1, let newest = unseen.first, newest.path == chain[index] else { return [] }
        return [newest]
    }
}
