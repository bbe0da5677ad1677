import SpytailCore

/// Finds a file's content after a rotation moved it: among the files of its folder named as rotated copies of
/// it or of the same chain (`app.log` → `app.log.1`, `app.log.1.gz` → `app.log.2.gz`), the one that starts
/// with the fingerprinted first line (a gzip copy by its decompressed text).
enum MovedContent {
    static func find(_ fingerprint: Fingerprint, near path: String) -> String? {
        let (folder, name) = (Paths.parent(of: path), Paths.baseName(of: path))
        let chain = stem(name)
        for candidate in Paths.names(in: folder) ?? [] where candidate != name {
            guard RotationName.parse(live: name, candidate: candidate) != nil || stem(candidate) == chain else { continue }
            let copy = Paths.join(folder, candidate)
            if Fingerprinter.ofFile(copy) == fingerprint { return copy }
        }
        return nil
    }

    /// A name up to its first '.' or '-': what the members of a chain share.
    private static func stem(_ name: String) -> Substring {
        name.prefix { $0 != "." && $0 != "-" }
    }
}
