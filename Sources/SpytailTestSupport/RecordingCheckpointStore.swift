import SpytailCore
import SpytailIO

/// Spy for `CheckpointStore`: records every save (and whether it was durable), scripts what `load`
/// returns or throws, and can run a closure at each save (to check what the outputs hold at that moment).
public final class RecordingCheckpointStore: CheckpointStore, @unchecked Sendable {
    public struct Save: Sendable {
        public let saved: SavedPositions
        public let durable: Bool
        public var checkpoints: [Checkpoint] { saved.checkpoints }
    }

    private let state = Locked<(saves: [Save], loads: Int)>(([], 0))
    public var loadResult: Result<SavedPositions, CheckpointStoreError> = .success(SavedPositions())
    public var saveError: CheckpointStoreError?
    public var onSave: (([Checkpoint]) -> Void)?

    public init() {}

    public var saves: [Save] { state.withLock { $0.saves } }
    public var loadCallCount: Int { state.withLock { $0.loads } }

    public func load() throws(CheckpointStoreError) -> SavedPositions {
        state.withLock { $0.loads += 1 }
        return try loadResult.get()
    }

    /// A power loss: the saves after the last durable one are gone (`FileCheckpointStore` keeps them in a file
    /// that counts only in the boot it was written in).
    public func loseUnsynced() {
        state.withLock { s in
            while let last = s.saves.last, !last.durable { s.saves.removeLast() }
        }
    }

    public func save(_ saved: SavedPositions, durable: Bool) throws(CheckpointStoreError) {
        onSave?(saved.checkpoints)
        if let saveError { throw saveError }
        state.withLock { $0.saves.append(Save(saved: saved, durable: durable)) }
    }
}
