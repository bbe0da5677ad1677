/// The names an entry's indices refer to: categories, tags and captured fields, with their JSON forms
/// built once so formatters only copy bytes.
public struct Vocabulary: Sendable {
    /// A category or tag as shown: its name and display glyph.
    public struct Label: Sendable, Hashable {
        public let name: String
        public let display: String
        /// Optional ANSI colour name for the text format (red, yellow, green, blue, magenta, cyan, dim).
        public let color: String?
        public init(name: String, display: String, color: String? = nil) {
            self.name = name
            self.display = display
            self.color = color
        }
    }

    public let categories: [Label]
    public let tags: [Label]
    public let fieldNames: [String]
    /// The config's source names, by `SourceFile.source`.
    public let sources: [String]

    public init(categories: [Label], tags: [Label], fieldNames: [String], sources: [String] = []) {
        self.categories = categories
        self.tags = tags
        self.fieldNames = fieldNames
        self.sources = sources
    }

    /// The name of a file's source, or nil for a file without one.
    public func sourceName(_ source: Int) -> String? { source >= 0 && source < sources.count ? sources[source] : nil }

    public func categoryIndex(named name: String) -> Int? { categories.firstIndex { $0.name == name } }
    public func tagIndex(named name: String) -> Int? { tags.firstIndex { $0.name == name } }
}
