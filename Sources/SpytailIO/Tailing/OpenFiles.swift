import SpytailCore

/// The files `run` holds a descriptor for, by identity, and which one each live path follows: the two kept
/// together so that no caller can drop one and forget the other. A drained (rotated-away) file is held by
/// identity only; a file under two live names (a hard link) is read once, both paths leading to it.
struct OpenFiles {
    private var byIdentity: [FileIdentity: TailedFile] = [:]
    private var byPath: [String: FileIdentity] = [:]

    subscript(identity: FileIdentity) -> TailedFile? { byIdentity[identity] }

    /// Every open file, as a snapshot (callers may close files while they go through it).
    var all: [TailedFile] { Array(byIdentity.values) }
    var count: Int { byIdentity.count }

    /// The identity followed at `path` (its file may have been closed since: a second live name's).
    func identity(followedAt path: String) -> FileIdentity? { byPath[path] }
    func file(followedAt path: String) -> TailedFile? { byPath[path].flatMap { byIdentity[$0] } }
    /// The live paths followed now, sorted.
    var followedPaths: [String] { byPath.keys.sorted() }

    /// `file` is followed at `path`.
    mutating func follow(_ file: TailedFile, at path: String) {
        byIdentity[file.identity] = file
        byPath[path] = file.identity
    }

    /// `path` leads to a file already open (under another live name).
    mutating func alias(_ path: String, to identity: FileIdentity) { byPath[path] = identity }

    /// A rotated-away file drained under its new name (no live path leads to it).
    mutating func addDrained(_ file: TailedFile) { byIdentity[file.identity] = file }

    /// `path` no longer leads to the file followed there (it was rotated away, or parked).
    mutating func unfollow(_ path: String) { byPath[path] = nil }

    /// `file` is closed: forgotten, and its live path with it when that still leads to it.
    mutating func remove(_ file: TailedFile) {
        byIdentity[file.identity] = nil
        if byPath[file.followPath] == file.identity { byPath[file.followPath] = nil }
    }

    /// Every file closed at once (the state became `disabled`).
    mutating func removeAll() {
        byIdentity = [:]
        byPath = [:]
    }
}
