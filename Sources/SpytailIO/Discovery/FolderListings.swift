/// The names in folders, each folder listed once while one pass over many files lasts: start-up with a
/// thousand live files in one folder lists it once, not once per file. A pass keeps its own; the next one
/// lists again (names change between passes).
public final class FolderListings {
    private var listed: [String: [String]] = [:]

    public init() {}

    /// The names in `directory` (none if it cannot be listed), as listed the first time it was asked for.
    public func names(in directory: String) -> [String] {
        if let names = listed[directory] { return names }
        let names = Paths.names(in: directory) ?? []
        listed[directory] = names
        return names
    }
}
