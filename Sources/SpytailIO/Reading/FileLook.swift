import SpytailCore

/// What a look at a file's first line found. "No descriptor" is its own answer: a look that could not open the
/// file says nothing of its content, and a caller that took it for "empty" or "other content" would pass over
/// lines it holds (the run-loop simulator found three such losses), so each caller says what it does then.
public enum FileLook: Sendable, Equatable {
    /// The fingerprint of its first line.
    case content(Fingerprint)
    /// Nothing to recognise it by: empty, its first line not complete yet, gone, or unreadable.
    case nothing
    /// Not opened: no descriptor was free (EMFILE, ENFILE). Its content is unknown.
    case noDescriptor

    public var fingerprint: Fingerprint? {
        if case .content(let fingerprint) = self { fingerprint } else { nil }
    }
}
