import Synchronization

/// How far an output that is acknowledged later than it is written (a network destination) has got:
/// records taken from the pipeline and records the destination acknowledged, both counted from the start
/// of the run. The checkpointer notes `taken` with each set of checkpoints and saves a set only once
/// `acknowledged` reached it: a checkpoint never moves past what the destination confirmed.
///
/// One ledger lives as long as its output, across reloads (a reloaded output takes over the old ledger
/// with the records it had not delivered), so the marks noted before a reload stay valid.
public final class DeliveryLedger: Sendable {
    private let takenCount = Atomic<UInt64>(0)
    private let acknowledgedCount = Atomic<UInt64>(0)
    private let retired = Atomic<Bool>(false)

    public init() {}

    public var taken: UInt64 { takenCount.load(ordering: .acquiring) }
    public var acknowledged: UInt64 { acknowledgedCount.load(ordering: .acquiring) }
    public var unacknowledged: UInt64 { taken &- acknowledged }

    /// The output took `records` more (the pipeline's thread).
    public func take(_ records: Int) { takenCount.add(UInt64(records), ordering: .releasing) }

    /// The destination acknowledged `records` more, in order (the output's delivery thread).
    public func acknowledge(_ records: Int) { acknowledgedCount.add(UInt64(records), ordering: .releasing) }

    /// Whether everything taken up to `mark` is acknowledged (or the output was removed by a reload: what
    /// it had not delivered is abandoned, and must not hold the checkpoints back for ever).
    public func hasAcknowledged(_ mark: UInt64) -> Bool { acknowledged >= mark || retired.load(ordering: .acquiring) }

    /// The output is gone (a reload removed it).
    public func retire() { retired.store(true, ordering: .releasing) }
}
