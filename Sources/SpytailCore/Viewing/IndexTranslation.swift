import Synchronization

/// How the indices of one `RecentNames` read in the config a view filter was compiled against: by name, a
/// category, tag or source that config no longer has reads as none (it matches no condition naming one).
struct IndexTranslation: Sendable {
    /// Old category index → new, or `gone`.
    let categories: [Int]
    /// Old tag index → new, or `gone`.
    let tags: [Int]
    /// Old source index → new (`SourceFile.unnamed` when gone).
    let sources: [Int]
    /// Every index reads as itself (the common case: no reload since): nothing to do per entry.
    let isIdentity: Bool

    static let gone = -1

    init(from old: RecentNames, to categories: [String: Int], _ tags: [String: Int], _ sources: [String: Int]) {
        self.categories = old.categories.map { categories[$0] ?? Self.gone }
        self.tags = old.tags.map { tags[$0] ?? Self.gone }
        self.sources = old.sources.map { sources[$0] ?? SourceFile.unnamed }
        isIdentity = [self.categories, self.tags, self.sources].allSatisfy { $0.enumerated().allSatisfy { $0.offset == $0.element } }
    }

    private init() {
        (categories, tags, sources, isIdentity) = ([], [], [], true)
    }

    /// For items without names (`RecentNames.none`).
    static let identity = IndexTranslation()

    func category(_ index: Int) -> Int {
        categories.indices.contains(index) ? categories[index] : (isIdentity ? index : Self.gone)
    }

    func source(_ index: Int) -> Int {
        sources.indices.contains(index) ? sources[index] : (isIdentity ? index : SourceFile.unnamed)
    }

    func tags(_ set: TagSet) -> TagSet {
        guard !isIdentity else { return set }
        var translated = TagSet()
        for index in set.indices where tags.indices.contains(index) && tags[index] != Self.gone { translated.insert(tags[index]) }
        return translated
    }
}

/// The translations one view filter has worked out, by the names they read from (held, so that no new names
/// are mistaken for freed ones). A few configs at most are in the ring at once.
final class IndexTranslations: Sendable {
    private let known = Mutex<[(names: RecentNames, translation: IndexTranslation)]>([])

    func translation(of names: RecentNames, _ make: (RecentNames) -> IndexTranslation) -> IndexTranslation {
        known.withLock { known in
            if let found = known.first(where: { $0.names === names }) { return found.translation }
            let translation = make(names)
            if known.count >= 8 { known.removeFirst() }
            known.append((names, translation))
            return translation
        }
    }
}
