/// The contents (first-line fingerprints) `run` has seen under each live path, the newest last: a rotated
/// copy whose content is among them was read (or skipped on purpose) and is not read again when it arrives.
/// Each path keeps its newest `perPath` contents.
public struct SeenContents: Sendable, Equatable {
    private var byPath: [String: [Fingerprint]] = [:]
    /// Live paths whose rotated chain, as first found in this run, was read or noted (start-up, a resume): any
    /// copy of theirs with content never seen holds lines written since, however many copies there are.
    public private(set) var chainsNoted: Set<String> = []
    /// Live paths whose history a first start read only part of (a member no descriptor was free to open): what it
    /// read is saved too, so a restart before the rest is read does not read it again (the restart notes the chain
    /// and reads the copies not among it, as for any noted chain).
    public private(set) var historiesCutShort: Set<String> = []
    /// How far a content was read that is no longer open (retired, then gone): a copy of it that turns up
    /// longer (gzipped after it grew) is read from there.
    private var readTo: [String: [Fingerprint: Int64]] = [:]
    public let perPath: Int

    public init(perPath: Int = 256) { self.perPath = perPath }

    /// The live paths anything was seen under.
    public var paths: Dictionary<String, [Fingerprint]>.Keys { byPath.keys }

    /// The contents seen under `live`, oldest first, with how far those let go part-way known were read.
    public func contents(under live: String) -> [SavedPositions.Seen] {
        (byPath[live] ?? []).map { SavedPositions.Seen($0, readTo: readTo[live]?[$0]) }
    }

    /// Everything read or skipped under `live`, when its chain was noted (nil: not known whole).
    public func knownContents(under live: String) -> [SavedPositions.Seen]? {
        chainsNoted.contains(live) ? contents(under: live) : nil
    }

    /// What is saved with the checkpoints: the contents seen under each of `paths` whose chain was noted (an
    /// empty list says nothing else was seen there; a path left out is not known), and under each whose history was
    /// cut short, when any of it was read.
    public func saved(for paths: some Sequence<String>) -> [String: [SavedPositions.Seen]] {
        var saved: [String: [SavedPositions.Seen]] = [:]
        for path in paths {
            if let known = knownContents(under: path) {
                saved[path] = known
            } else if historiesCutShort.contains(path), byPath[path]?.isEmpty == false {
                saved[path] = contents(under: path)
            }
        }
        return saved
    }

    /// What is saved with the checkpoints: `saved(for:)` every noted chain and every history cut short.
    public func saved() -> [String: [SavedPositions.Seen]] { saved(for: chainsNoted.union(historiesCutShort)) }

    /// Notes that a first start read `live`'s history only part-way (`historiesCutShort`).
    public mutating func noteHistoryCutShort(of live: String) { historiesCutShort.insert(live) }

    /// Takes back what an earlier run saved (`saved(for:)`): those paths' chains are known.
    public mutating func restore(_ saved: [String: [SavedPositions.Seen]]) {
        for (path, contents) in saved {
            noteChain(of: path)
            for content in contents { remember(content.fingerprint, under: path, readTo: content.readTo) }
        }
    }

    /// Whether everything seen under `live` since its chain was noted is still here (nothing dropped for the
    /// bound): then a copy of its chain with content not among it was written since, wherever it sits.
    public func isWhole(under live: String) -> Bool {
        chainsNoted.contains(live) && (byPath[live]?.count ?? 0) < perPath
    }

    public func contains(_ fingerprint: Fingerprint, under live: String) -> Bool {
        byPath[live]?.contains(fingerprint) == true
    }

    /// Notes `fingerprint` (nothing for nil: a file with no complete first line yet has no content to name).
    public mutating func remember(_ fingerprint: Fingerprint?, under live: String) {
        guard let fingerprint else { return }
        var seen = byPath[live, default: []]
        guard !seen.contains(fingerprint) else { return }
        seen.append(fingerprint)
        if seen.count > perPath { seen.removeFirst(seen.count - perPath) }
        byPath[live] = seen
    }

    /// Notes that `live`'s chain, as found now, was read or noted.
    public mutating func noteChain(of live: String) { chainsNoted.insert(live) }

    /// Takes back `noteChain`: the chain could not be looked at after all (no descriptor free to open its copies).
    public mutating func unnoteChain(of live: String) { chainsNoted.remove(live) }

    /// Forgets everything about `live` (its folder is gone: a deleted pod's container log).
    public mutating func forget(_ live: String) {
        byPath[live] = nil
        readTo[live] = nil
        chainsNoted.remove(live)
        historiesCutShort.remove(live)
    }

    /// Notes `fingerprint` as read up to `offset` under `live` (a file let go: retired, closed; nil: how far is
    /// not known).
    public mutating func remember(_ fingerprint: Fingerprint?, under live: String, readTo offset: Int64?) {
        remember(fingerprint, under: live)
        guard let fingerprint, let offset else { return }
        var offsets = readTo[live, default: [:]]
        offsets[fingerprint] = offset
        if offsets.count > perPath, let any = offsets.keys.first(where: { $0 != fingerprint }) { offsets[any] = nil }
        readTo[live] = offsets
    }

    /// Notes `fingerprint` as read at least up to `offset` under `live`: a mark already further on stays (a copy of the
    /// content was read on past `offset` meanwhile; set back, that copy's lines would be read again).
    public mutating func remember(_ fingerprint: Fingerprint, under live: String, readAtLeastTo offset: Int64) {
        remember(fingerprint, under: live, readTo: max(offset, readOffset(of: fingerprint, under: live) ?? offset))
    }

    /// A rotated copy of `fingerprint` was read up to `end` under `live`: seen, and if it had been let go
    /// part-way before, its mark moves on with it (a restart reads on from there rather than again).
    public mutating func read(_ fingerprint: Fingerprint, under live: String, to end: Int64) {
        remember(fingerprint, under: live, readTo: readOffset(of: fingerprint, under: live) != nil ? end : nil)
    }

    /// Some content under `live` has its read offset kept (`readOffset(of:under:)`).
    public func hasReadOffsets(under live: String) -> Bool { readTo[live]?.isEmpty == false }

    /// How far content `fingerprint` was read under `live`, when it was let go part-way known.
    public func readOffset(of fingerprint: Fingerprint, under live: String) -> Int64? { readTo[live]?[fingerprint] }
}
