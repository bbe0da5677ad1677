import Glibc
import SpytailCore

/// Where checkpoints are kept between runs. The file store writes atomically; tests use a spy.
public protocol CheckpointStore: AnyObject {
    /// The saved positions; a damaged store is set aside (reported through the error) and reads as empty.
    func load() throws(CheckpointStoreError) -> SavedPositions
    /// Replaces the saved positions. `durable` also waits for the disk (fsync).
    func save(_ saved: SavedPositions, durable: Bool) throws(CheckpointStoreError)
}

/// A checkpoint file that could not be read or written.
public struct CheckpointStoreError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
