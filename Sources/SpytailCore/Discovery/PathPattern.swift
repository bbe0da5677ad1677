import Glibc

/// An include or exclude pattern from a source: shell wildcards per path component, `**` for any
/// number of directories. Matching is pure; walking directories is the I/O layer's job.
public struct PathPattern: Sendable, Hashable {
    public let text: String
    /// The leading components without wildcards: where a walk starts.
    public let root: String
    /// The remaining components, each a wildcard pattern (or `**`).
    public let components: [String]

    public init(_ text: String) {
        self.text = text
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let firstWild = parts.firstIndex(where: PathPattern.hasWildcard) ?? parts.count
        let lead = parts[..<firstWild].joined(separator: "/")
        root = text.hasPrefix("/") ? "/" + lead : (lead.isEmpty ? "." : lead)
        components = Array(parts[firstWild...])
    }

    public static func hasWildcard(_ component: String) -> Bool {
        component.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    /// Whether one path component matches one pattern component (a leading dot must be matched literally).
    public static func matches(component pattern: String, name: String) -> Bool {
        fnmatch(pattern, name, FNM_PERIOD) == 0
    }

    /// Whether `path` (absolute or relative like the pattern) is matched: the root, then one component per
    /// pattern component, `**` standing for any number of folders.
    public func matches(path: String) -> Bool {
        let prefix = root == "/" ? "/" : root + "/"
        guard root == "." ? !path.hasPrefix("/") : path.hasPrefix(prefix) else { return components.isEmpty && path == root }
        let rest = root == "." ? path : String(path.dropFirst(prefix.count))
        let parts = rest.split(separator: "/").map(String.init)
        return Self.match(components[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return parts.isEmpty }
        if first == "**" {
            if match(pattern.dropFirst(), parts) { return true }
            guard let part = parts.first, !part.hasPrefix(".") else { return false }
            return match(pattern, parts.dropFirst())
        }
        guard let part = parts.first, matches(component: first, name: part) else { return false }
        return match(pattern.dropFirst(), parts.dropFirst())
    }

    /// Whether `path` is excluded by this pattern: a pattern without `/` is matched against the file name,
    /// one with `/` against the whole path.
    public func excludes(path: String) -> Bool {
        if text.contains("/") { return fnmatch(text, path, 0) == 0 }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return fnmatch(text, name, FNM_PERIOD) == 0
    }
}
