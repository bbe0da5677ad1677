/// The names behind the indices of a batch's items: the categories, tags and sources of the config its entries
/// were read under. A viewer's filter is compiled against the config of its request; after a reload that
/// reorders, renames or removes categories, tags or sources, it reads older batches through these names.
/// One per tap (per config), shared by its batches.
public final class RecentNames: Sendable {
    public let categories: [String]
    public let tags: [String]
    public let sources: [String]

    public init(categories: [String], tags: [String], sources: [String]) {
        self.categories = categories
        self.tags = tags
        self.sources = sources
    }

    public convenience init(_ vocabulary: Vocabulary) {
        self.init(categories: vocabulary.categories.map(\.name), tags: vocabulary.tags.map(\.name), sources: vocabulary.sources)
    }

    /// No names: an item's indices are taken as they are.
    public static let none = RecentNames(categories: [], tags: [], sources: [])
}
