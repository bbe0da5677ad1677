/// The batching and buffering settings every network output has (`clickhouse`, `syslog`), decoded alike
/// (`decodeDeliveryLimits`) and read alike by the output that batches.
public protocol BatchedDestination: Sendable {
    /// A batch is sent when it holds this many records…
    var batchMaxRecords: Int { get }
    /// …or this long after its first record came in.
    var batchMaxMs: Int { get }
    /// Records taken but not yet acknowledged, at most; beyond it reading pauses (back-pressure).
    var bufferMaxRecords: Int { get }
    /// How long a stop waits for the last batches to be acknowledged.
    var shutdownTimeoutMs: Int { get }
}
