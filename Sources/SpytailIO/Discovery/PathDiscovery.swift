import Glibc
import SpytailCore

/// Finds a source's files: include patterns expanded by walking directories, exclude patterns applied,
/// and (for `rotated` sources) each live file preceded by its rotated chain, oldest first.
public struct PathDiscovery {
    /// Config paths are relative to this folder (the config file's).
    public let baseDirectory: String

    /// Each `rotatedPattern` of the sources given at creation, compiled once (looked at for every name in a
    /// folder at each of its events).
    private let patterns: [String: Regex]
    /// Each include (resolved against `baseDirectory`) and exclude pattern of those sources, split once: `run`
    /// asks whether a path is a live file for every name in a folder at each of its events (splitting them per
    /// question was an eighth of the run-loop simulator's time).
    private let includes: [String: PathPattern]
    private let excludes: [String: PathPattern]

    public init(baseDirectory: String, sources: [SpytailConfig.Source] = []) {
        self.baseDirectory = baseDirectory
        var patterns: [String: Regex] = [:]
        for pattern in sources.compactMap(\.rotatedPattern) where patterns[pattern] == nil { patterns[pattern] = try? Regex(pattern) }
        self.patterns = patterns
        includes = Dictionary(sources.flatMap(\.include).map { ($0, PathPattern(Self.resolve($0, in: baseDirectory))) },
                              uniquingKeysWith: { first, _ in first })
        excludes = Dictionary(sources.flatMap(\.exclude).map { ($0, PathPattern($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// An include pattern of a source, resolved against `baseDirectory`.
    private func include(_ text: String) -> PathPattern { includes[text] ?? PathPattern(resolve(text)) }
    private func exclude(_ text: String) -> PathPattern { excludes[text] ?? PathPattern(text) }

    /// Files to read for `source`, in reading order, each once. A symlink pointing outside its pattern's
    /// folder is left out (and named in `refused`) unless the source says `followSymlinks`.
    public func files(for source: SpytailConfig.Source) -> [String] {
        files(for: source, refused: nil)
    }

    public func files(for source: SpytailConfig.Source, withChains: Bool = true, refused: ((String, String) -> Void)?) -> [String] {
        let excludes = source.exclude.map(exclude)
        var ordered: [String] = []
        var seen = Set<String>()
        let listings = FolderListings()
        for pattern in source.include.map(include) {
            for live in expand(pattern) where !isRotatedCopy(live, of: source) {
                if let target = escapingTarget(live, of: source) {
                    refused?(live, target)
                    continue
                }
                let chain = source.rotated && withChains ? rotatedChain(of: live, source: source, listings: listings) + [live] : [live]
                for path in chain where !seen.contains(path) && !excludes.contains(where: { $0.excludes(path: path) }) {
                    seen.insert(path)
                    ordered.append(path)
                }
            }
        }
        return ordered
    }

    /// The rotated copies of `live` in its folder and the source's `olddir`, oldest first. `listings`: folders
    /// listed once for a pass over many live files (a thousand in one folder), instead of once per file.
    public func rotatedChain(of live: String, source: SpytailConfig.Source, listings: FolderListings? = nil) -> [String] {
        naming(for: source).chain(live: Paths.baseName(of: live), paths: candidates(near: live, source: source, listings: listings))
    }

    /// Every rotated copy of `live`, both forms of a rotation kept, oldest first (for fingerprint search).
    public func rotatedCopies(of live: String, source: SpytailConfig.Source) -> [String] {
        naming(for: source).allCopies(live: Paths.baseName(of: live), paths: candidates(near: live, source: source))
    }

    /// The folders where `live`'s rotated copies can be: its own, and the source's `olddir`.
    public func chainDirectories(of live: String, source: SpytailConfig.Source) -> [String] {
        let directory = Paths.parent(of: live)
        guard let olddir = source.olddir else { return [directory] }
        let old = olddir.hasPrefix("/") ? Paths.normalize(olddir) : Paths.join(directory, olddir)
        return old == directory ? [directory] : [directory, old]
    }

    /// Files in the chain's folders (names only are looked at; the live file itself is never a copy).
    func candidates(near live: String, source: SpytailConfig.Source, listings: FolderListings? = nil) -> [String] {
        // Built-in names start with the live name's stem: a folder of a thousand live files is not parsed (and
        // its paths not built) a thousand times over. A source's pattern may name its copies anything.
        let prefix = source.rotatedPattern == nil ? Array(RotationName.copyPrefix(of: Paths.baseName(of: live)).utf8) : []
        return chainDirectories(of: live, source: source).flatMap { directory in
            (listings?.names(in: directory) ?? Paths.names(in: directory) ?? []).filter { $0.utf8.starts(with: prefix) }
                .map { Paths.join(directory, $0) }
        }.filter { $0 != live }
    }

    /// The source's naming: the built-in names, plus its `rotatedPattern` (checked when the config was compiled;
    /// compiled here only for a source not given at creation).
    public func naming(for source: SpytailConfig.Source) -> RotationNaming {
        RotationNaming(pattern: source.rotatedPattern.flatMap { patterns[$0] ?? (try? Regex($0)) })
    }

    /// Orders explicit paths: members of one rotated chain oldest first, the live file last, wherever each
    /// sits (`logs/app.log logs/old/app.log.*`), at the place of the chain's first path; everything else as given.
    /// Copies in another folder join the chain of the one live file of their name, if there is exactly one.
    public static func orderExplicit(_ paths: [String]) -> [String] {
        func chainName(_ path: String) -> String {
            RotationName.liveName(of: Paths.baseName(of: path)) ?? Paths.baseName(of: path)
        }
        let lives = Dictionary(grouping: paths.filter { RotationName.liveName(of: Paths.baseName(of: $0)) == nil }, by: chainName)
        func chainKey(_ path: String) -> String {
            let name = chainName(path)
            let sameFolder = Paths.join(Paths.parent(of: path), name)
            if paths.contains(sameFolder) { return sameFolder }
            if let only = lives[name], only.count == 1 { return only[0] }
            return "*/" + name  // copies without a live file: one chain per name
        }
        var groups: [(key: String, members: [String])] = []
        for path in paths {
            let key = chainKey(path)
            if let index = groups.firstIndex(where: { $0.key == key }) { groups[index].members.append(path) } else { groups.append((key, [path])) }
        }
        return groups.flatMap { group in
            group.members.enumerated().sorted { a, b in
                let ra = RotationName.parse(live: chainName(a.element), candidate: Paths.baseName(of: a.element))?.rotation
                let rb = RotationName.parse(live: chainName(b.element), candidate: Paths.baseName(of: b.element))?.rotation
                switch (ra, rb) {
                case let (x?, y?): return x == y ? a.offset < b.offset : x < y
                case (_?, nil): return true  // rotated before live
                case (nil, _?): return false
                default: return a.offset < b.offset
                }
            }.map(\.element)
        }
    }

    /// Folders to watch so that `source`'s files are seen when they appear: each include pattern's fixed
    /// root, and every existing folder a wildcard folder component or `**` leads to.
    public func watchDirectories(for source: SpytailConfig.Source) -> [String] {
        var found = Set<String>()
        for pattern in source.include.map(include) {
            let root = pattern.components.isEmpty ? Paths.parent(of: pattern.root) : pattern.root
            found.insert(root)
            if pattern.components.count > 1 { walkDirectories(root, pattern.components.dropLast()[...], into: &found) }
        }
        // logrotate's olddir of each folder live files can be in, where it exists (its creation in a watched
        // folder makes `run` look again).
        if source.rotated, let olddir = source.olddir {
            for directory in Array(found) {
                let old = olddir.hasPrefix("/") ? Paths.normalize(olddir) : Paths.join(directory, olddir)
                if Syscall.stat(old)?.isDirectory == true { found.insert(old) }
            }
        }
        return found.sorted()
    }

    /// Where `path` really leads when that is outside the folder of the pattern that matched it and the
    /// source does not allow it (nil: fine to read).
    public func escapingTarget(_ path: String, of source: SpytailConfig.Source) -> String? {
        guard !source.followSymlinks, let real = Self.realPath(path) else { return nil }
        let roots = source.include.map(include).filter { $0.matches(path: path) }
            .compactMap { Self.realPath($0.components.isEmpty ? Paths.parent(of: $0.root) : $0.root) }
        guard !roots.isEmpty else { return nil }
        return roots.contains { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } ? nil : real
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The first of `sources` whose patterns take `path` (an absolute path) as a live file or a rotated copy.
    public func sourceIndex(of path: String, among sources: [SpytailConfig.Source]) -> Int? {
        sources.firstIndex { isLiveFile(path, of: $0) || (isRotatedCopy(path, of: $0) && !$0.exclude.contains { exclude($0).excludes(path: path) }) }
    }

    /// Whether `path` is one of `source`'s live files: matched by an include pattern, not excluded, and not a
    /// rotated copy of a name the patterns match (`app-20261123.log` beside `app.log` under `*.log`).
    public func isLiveFile(_ path: String, of source: SpytailConfig.Source) -> Bool {
        matchesInclude(path, of: source) && !source.exclude.contains { exclude($0).excludes(path: path) }
            && !isRotatedCopy(path, of: source)
    }

    func matchesInclude(_ path: String, of source: SpytailConfig.Source) -> Bool {
        source.include.contains { include($0).matches(path: path) }
    }

    /// A rotated copy by its name: its live name is one the source's patterns match, or its `rotatedPattern` matches it.
    func isRotatedCopy(_ path: String, of source: SpytailConfig.Source) -> Bool {
        guard source.rotated else { return false }
        let name = Paths.baseName(of: path)
        if let live = RotationName.liveName(of: name), matchesInclude(Paths.join(Paths.parent(of: path), live), of: source) {
            return true
        }
        return source.rotatedPattern != nil && naming(for: source).patterned(name) != nil
    }

    /// Live files of `source` (no rotated chains), sorted.
    public func liveFiles(for source: SpytailConfig.Source) -> [String] {
        files(for: source, withChains: false, refused: nil)
    }

    /// `found` with each file once (compared by device and inode): under a path that is not a symlink when one
    /// leads to it (`/var/log/pods/…` rather than `/var/log/containers/…`, as `run` does), else the first. A
    /// path that cannot be looked at is kept (reading it says why).
    public static func onePathPerFile<T>(_ found: [T], path: (T) -> String) -> [T] {
        let looked = found.map { item in
            (item: item, identity: Syscall.stat(path(item)).map { FileIdentity($0) }, isLink: Syscall.isSymlink(path(item)))
        }
        let direct = Set(looked.filter { !$0.isLink }.compactMap(\.identity))
        var seen = Set<FileIdentity>()
        return looked.filter { item in
            guard let id = item.identity else { return true }
            if item.isLink && direct.contains(id) { return false }
            return seen.insert(id).inserted
        }.map(\.item)
    }

    /// For a source that follows symlinks: the folders its live symlinks point into, each with the live paths
    /// that point there (`/var/log/containers/*.log` into `/var/log/pods/…/`). A write to the file, or its
    /// rotation, is told in that folder, not in the symlink's.
    public func linkedFolders(for source: SpytailConfig.Source) -> [String: Set<String>] {
        guard source.followSymlinks else { return [:] }
        var folders: [String: Set<String>] = [:]
        for path in liveFiles(for: source) where Syscall.isSymlink(path) {
            guard let target = Self.realPath(path) else { continue }
            folders[Paths.parent(of: target), default: []].insert(path)
        }
        return folders
    }

    private func walkDirectories(_ directory: String, _ rest: ArraySlice<String>, into found: inout Set<String>) {
        guard let component = rest.first else { return }
        for name in Paths.names(in: directory) ?? [] where !name.hasPrefix(".") {
            let path = Paths.join(directory, name)
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

    func resolve(_ pattern: String) -> String { Self.resolve(pattern, in: baseDirectory) }

    private static func resolve(_ pattern: String, in baseDirectory: String) -> String {
        pattern.hasPrefix("/") ? pattern : Paths.join(baseDirectory, pattern)
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
        let names = Paths.names(in: directory) ?? []
        if component == "**" {
            walk(directory, remaining, into: &found)
            for name in names where !name.hasPrefix(".") {
                let path = Paths.join(directory, name)
                if Syscall.stat(path)?.isDirectory == true { walk(path, rest, into: &found) }
            }
            return
        }
        for name in names where PathPattern.matches(component: component, name: name) {
            let path = Paths.join(directory, name)
            guard let info = Syscall.stat(path) else { continue }
            if remaining.isEmpty {
                if info.isRegularFile { found.append(path) }
            } else if info.isDirectory {
                walk(path, remaining, into: &found)
            }
        }
    }
}
