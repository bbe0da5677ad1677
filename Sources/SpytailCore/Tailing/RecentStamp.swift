/// What a checkpoint save that was not made durable (`<checkpoints>.recent`) is good for. Its bytes live in
/// the page cache, like the output bytes written before it: a crash of the process keeps both, a power loss
/// may keep the save and not the output. So it counts only in the boot it was written in (`boot`, the
/// kernel's boot id), and only beside the durable checkpoint file it was written after (`follows`, that file's
/// identity; nil: there was none), never beside one replaced since.
public struct RecentStamp: Sendable, Equatable {
    public let boot: String
    public let follows: FileIdentity?

    public init(boot: String, follows: FileIdentity?) {
        self.boot = boot
        self.follows = follows
    }

    /// Whether a save stamped so still counts, in `boot`, beside the checkpoint file `current` (nil: none).
    /// An unknown boot id (empty) never counts.
    public func counts(inBoot boot: String, beside current: FileIdentity?) -> Bool {
        !boot.isEmpty && boot == self.boot && current == follows
    }
}
