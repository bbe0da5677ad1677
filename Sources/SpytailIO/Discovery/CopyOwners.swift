import SpytailCore

/// Which live file a rotated copy belongs to, by names alone (nothing is opened): for copies `run` was not
/// told about, or told about only as a name arriving in a folder. A copy belongs to the first rotated
/// source whose live file it names (in the copy's folder, or one up for an olddir) and whose chain folders
/// hold it; a source's `rotatedPattern` copies need not hold the live name, so the live files followed now
/// are candidates too.
public struct CopyOwners {
    let discovery: PathDiscovery
    let sources: [SpytailConfig.Source]
    /// Live files followed now, asked for only when a source has a `rotatedPattern`.
    let followed: [String]

    public init(discovery: PathDiscovery, sources: [SpytailConfig.Source], followed: () -> [String]) {
        self.discovery = discovery
        self.sources = sources
        self.followed = sources.contains { $0.rotatedPattern != nil } ? followed() : []
    }

    /// The live file (and its source) whose rotated copy `path` is.
    public func liveFile(ofCopy path: String) -> (live: String, source: SpytailConfig.Source)? {
        let name = Paths.baseName(of: path), directory = Paths.parent(of: path)
        // By the built-in names: the live name is in the copy's name (the live file need not exist now).
        let named = [directory, Paths.parent(of: directory)].compactMap { folder in
            RotationName.liveName(of: name).map { Paths.join(folder, $0) }
        }
        for candidate in named + followed {
            guard let source = sources.first(where: { $0.rotated && discovery.isLiveFile(candidate, of: $0) }),
                  discovery.chainDirectories(of: candidate, source: source).contains(directory),
                  discovery.naming(for: source).parse(live: Paths.baseName(of: candidate), candidate: name) != nil
            else { continue }
            return (candidate, source)
        }
        return nil
    }

    /// Every folder a rotated copy of a live file in one of `parents` can be in (its own, an olddir).
    public func chainFolders(near parents: Set<String>) -> Set<String> {
        var folders = Set<String>()
        for source in sources where source.rotated {
            // A chain's folders depend on the live path's folder only: any name there stands for all of them.
            for parent in parents { folders.formUnion(discovery.chainDirectories(of: Paths.join(parent, "-"), source: source)) }
        }
        return folders
    }

    /// The rotated copies in `folders` (one listing each), by live file, each chain oldest first; in live path order.
    public func chains(in folders: Set<String>) -> [(live: String, chain: [String])] {
        var copies: [String: (source: SpytailConfig.Source, paths: [String])] = [:]
        for folder in folders.sorted() {
            for name in Paths.names(in: folder) ?? [] {
                let path = Paths.join(folder, name)
                guard let (live, source) = liveFile(ofCopy: path) else { continue }
                copies[live, default: (source, [])].paths.append(path)
            }
        }
        return copies.sorted { $0.key < $1.key }.map { live, found in
            (live, discovery.naming(for: found.source).chain(live: Paths.baseName(of: live), paths: found.paths))
        }
    }
}
