import Glibc
import SpytailCore

/// Finds a source's files: include patterns expanded by walking directories, exclude patterns applied,
/// and (for `rotated` sources) each live file preceded by its rotated chain, oldest first.
public struct PathDiscovery {
    /// Config paths are relative to this folder (the config file's).
    public let baseDirectory: String

    public init(baseDirectory: String) { self.baseDirectory = baseDirectory }

    /// Files to read for `source`, in reading order, each once. A symlink pointing outside its pattern's
    /// folder is left out (and named in `refused`) unless the source says `followSymlinks`.
    public func files(for source: SpytailConfig.Source) -> [String] {
        files(for: source, refused: nil)
    }

    public func files(for source: SpytailConfig.Source, refused: ((String, String) -> Void)?) -> [String] {
        let excludes = source.exclude.map(PathPattern.init)
        var ordered: [String] = []
        var seen = Set<String>()
        for pattern in source.include.map({ PathPattern(resolve($0)) }) {
            for live in expand(pattern) {
                if let target = escapingTarget(live, of: source) {
                    refused?(live, target)
                    continue
                }
                let chain = source.rotated ? rotatedChain(of: live) + [live] : [live]
                for path in chain where !seen.contains(path) && !excludes.contains(where: { $0.excludes(path: path) }) {
                    seen.insert(path)
                    ordered.append(path)
                }
            }
        }
        return ordered
    }

    /// The rotated copies of `live` in its folder, oldest first.
    public func rotatedChain(of live: String) -> [String] {
        let directory = Directory.parent(of: live)
        let names = Directory.names(in: directory) ?? []
        return RotationName.chain(live: Directory.baseName(of: live), names: names).map { Directory.join(directory, $0) }
    }

    /// Every rotated copy of `live`, both forms of a rotation kept, oldest first (for fingerprint search).
    public func rotatedCopies(of live: String) -> [String] {
        let directory = Directory.parent(of: live)
        let names = Directory.names(in: directory) ?? []
        return RotationName.allCopies(live: Directory.baseName(of: live), names: names).map { Directory.join(directory, $0) }
    }

    /// Orders explicit paths: members of one rotated chain oldest first (at the place of the chain's first
    /// member), everything else as given.
    public static func orderExplicit(_ paths: [String]) -> [String] {
        var groups: [(live: String, members: [String])] = []
        for path in paths {
            let name = Directory.baseName(of: path), directory = Directory.parent(of: path)
            let live = paths.first { other in
                other != path && Directory.parent(of: other) == directory
                    && RotationName.parse(live: Directory.baseName(of: other), candidate: name) != nil
            } ?? path
            if let index = groups.firstIndex(where: { $0.live == live }) {
                groups[index].members.append(path)
            } else {
                groups.append((live, [path]))
            }
        }
        return groups.flatMap { group in
            let liveName = Directory.baseName(of: group.live)
            return group.members.sorted { a, b in
                let ra = RotationName.parse(live: liveName, candidate: Directory.baseName(of: a))?.rotation
                let rb = RotationName.parse(live: liveName, candidate: Directory.baseName(of: b))?.rotation
                switch (ra, rb) {
                case let (x?, y?): return x < y
                case (_?, nil): return true  // rotated before live
                default: return false
                }
            }
        }
    }

    /// Folders to watch so that `source`'s files are seen when they appear: each include pattern's fixed
    /// root, and every existing folder a wildcard folder component or `**` leads to.
    public func watchDirectories(for source: SpytailConfig.Source) -> [String] {
        var found = Set<String>()
        for pattern in source.include.map({ PathPattern(resolve($0)) }) {
            let root = pattern.components.isEmpty ? Directory.parent(of: pattern.root) : pattern.root
            found.insert(root)
            if pattern.components.count > 1 { walkDirectories(root, pattern.components.dropLast()[...], into: &found) }
        }
        return found.sorted()
    }

    /// Where `path` really leads when that is outside the folder of the pattern that matched it and the
    /// source does not allow it (nil: fine to read).
    public func escapingTarget(_ path: String, of source: SpytailConfig.Source) -> String? {
        guard !source.followSymlinks, let real = Self.realPath(path) else { return nil }
        let roots = source.include.map { PathPattern(resolve($0)) }.filter { $0.matches(path: path) }
            .compactMap { Self.realPath($0.components.isEmpty ? Directory.parent(of: $0.root) : $0.root) }
        guard !roots.isEmpty else { return nil }
        return roots.contains { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } ? nil : real
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is one of `source`'s live files: matched by an include pattern, not excluded.
    public func isLiveFile(_ path: String, of source: SpytailConfig.Source) -> Bool {
        source.include.contains { PathPattern(resolve($0)).matches(path: path) }
            && !source.exclude.contains { PathPattern($0).excludes(path: path) }
    }

    /// Live files of `source` (no rotated chains), sorted.
    public func liveFiles(for source: SpytailConfig.Source) -> [String] {
        var files = source
        files.rotated = false
        return self.files(for: files)
    }

    private func walkDirectories(_ directory: String, _ rest: ArraySlice<String>, into found: inout Set<String>) {
        guard let component = rest.first else { return }
        for name in Directory.names(in: directory) ?? [] where !name.hasPrefix(".") {
            let path = Directory.join(directory, name)
            guard Syscall.stat(path)?.isDirectory == true else { continue }
            if component == "**" {
                found.insert(path)
                walkDirectories(path, rest, into: &found)
            } else if PathPattern.matches(component: component, name: name) {
                found.insert(path)
                walkDirectories(path, rest.dropFirst(), into: &found)
            }
        }
    }

    func resolve(_ pattern: String) -> String {
        pattern.hasPrefix("/") ? pattern : Directory.join(baseDirectory, pattern)
    }

    /// Regular files matching `pattern`, sorted.
    func expand(_ pattern: PathPattern) -> [String] {
        guard !pattern.components.isEmpty else {
            return Syscall.stat(pattern.root)?.isRegularFile == true ? [pattern.root] : []
        }
        var found: [String] = []
        walk(pattern.root, pattern.components[...], into: &found)
        return found.sorted()
    }

    private func walk(_ directory: String, _ rest: ArraySlice<String>, into found: inout [String]) {
        guard let component = rest.first else { return }
        let remaining = rest.dropFirst()
        let names = Directory.names(in: directory) ?? []
        if component == "**" {
            walk(directory, remaining, into: &found)
            for name in names where !name.hasPrefix(".") {
                let path = Directory.join(directory, name)
                if Syscall.stat(path)?.isDirectory == true { walk(path, rest, into: &found) }
            }
            return
        }
        for name in names where PathPattern.matches(component: component, name: name) {
            let path = Directory.join(directory, name)
            guard let info = Syscall.stat(path) else { continue }
            if remaining.isEmpty {
                if info.isRegularFile { found.append(path) }
            } else if info.isDirectory {
                walk(path, remaining, into: &found)
            }
        }
    }
}
