import SpytailCore

/// A rotated-away file read to its end and closed: where it is, and where reading stands.
struct RetiredFile {
    var checkpoint: Checkpoint
    var currentPath: String
    /// The folder watched for it alone, if any.
    var watch: String?
    /// Retirement order, to forget the oldest first.
    var order: Int

    /// Whether its name still leads to it (one `stat`): not renamed, gzipped or deleted since, its inode not reused.
    var isWhereItWasRetired: Bool { Syscall.stat(currentPath).map({ FileIdentity($0) }) == checkpoint.identity }
}
