/// A file output's path that holds `{source}`: one file per source, named by the source (`unnamed` for
/// files named on the command line that no source takes).
public enum SourcePathTemplate {
    public static let placeholder = "{source}"
    public static let unnamed = "unnamed"

    public static func holdsSource(_ path: String) -> Bool { path.contains(placeholder) }

    /// The path for `source` (an index into `names`).
    public static func path(_ template: String, source: Int, names: [String]) -> String {
        let name = source >= 0 && source < names.count ? names[source] : unnamed
        return template.replacing(placeholder, with: name)
    }

    /// Why a source's name cannot be part of a file name, if it cannot.
    public static func problem(with name: String) -> String? {
        if name.contains("/") { return "contains '/'" }
        if name == "." || name == ".." { return "is '\(name)'" }
        if name.utf8.contains(0) { return "contains a NUL" }
        return nil
    }
}
