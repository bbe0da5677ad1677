/// The contents (first-line fingerprints) `run` has seen under each live path, the newest last: a rotated
/// copy whose content is among them was read (or skipped on purpose) and is not read again when it arrives.
/// Each path keeps its newest `perPath` contents.
public struct SeenContents: Sendable, Equatable {
    private var byPath: [String: [Fingerprint]] = [:]
    /// Live paths whose file was empty when it was last let go (disabled): any copy of their chain with content
    /// never seen was written since, however many copies there are.
    public private(set) var leftEmpty: Set<String> = []
    public let perPath: Int

    public init(perPath: Int = 256) { self.perPath = perPath }

    /// The live paths anything was seen under.
    public var paths: Dictionary<String, [Fingerprint]>.Keys { byPath.keys }

    public func contains(_ fingerprint: Fingerprint, under live: String) -> Bool {
        byPath[live]?.contains(fingerprint) == true
    }

    /// Notes `fingerprint` (nothing for nil: a file with no complete first line yet has no content to name).
    public mutating func remember(_ fingerprint: Fingerprint?, under live: String) {
        guard let fingerprint else { return }
        leftEmpty.remove(live)
        var seen = byPath[live, default: []]
        guard !seen.contains(fingerprint) else { return }
        seen.append(fingerprint)
        if seen.count > perPath { seen.removeFirst(seen.count - perPath) }
        byPath[live] = seen
    }

    /// Notes that the file followed under `live` was empty when it was let go.
    public mutating func noteLeftEmpty(_ live: String) { leftEmpty.insert(live) }
}
