import Glibc

/// Path helpers: a folder's names (readdir(3)), joining and normalising paths, parent and base name.
public enum Paths {
    /// Names in `path` (without `.` and `..`), sorted; nil when it cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `directory/name`, with `.` and `dir/..` steps removed (lexically: paths are for reading and display).
    public static func join(_ directory: String, _ name: String) -> String {
        normalize(directory == "." ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }

    /// Removes `.` components and `name/..` pairs, keeping a leading `..` that cannot be resolved.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", path.hasPrefix("/") { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func baseName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
