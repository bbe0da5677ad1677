import SpytailCore

/// A rotated-away file read to its end and closed: where it is, and where reading stands.
struct RetiredFile {
    var checkpoint: Checkpoint
    var currentPath: String
    /// The folder watched for it alone, if any.
    var watch: String?
    /// Retirement order, to forget the oldest first.
    var order: Int
    /// The file as it was when retired, or last looked at and found to hold its content: the same inode, size and
    /// modification time say nothing changed without a descriptor spent on a look (the same size alone does not: the
    /// inode may have been reused for a new file as long, as simulator seed 40929 found for a parked position).
    var stamp: FileStamp?

    /// Whether its name still leads to it (one `stat`): not renamed, gzipped or deleted since, its inode not reused.
    var isWhereItWasRetired: Bool { Syscall.stat(currentPath).map({ FileIdentity($0) }) == checkpoint.identity }
}
