import SpytailCore

/// An output whose bytes reach their destination later than `write` returns: it batches, sends on its own
/// thread and counts acknowledgements in its `ledger`. Its `write` takes records until its bounded buffer is
/// full, then throws `SinkError.Cause.waiting` (reading pauses until acknowledgements make room).
public protocol AcknowledgingOutput: AnyObject, Sendable {
    var ledger: DeliveryLedger { get }
    /// For messages: `clickhouse http://127.0.0.1:8123 default.spytail_logs`.
    var name: String { get }
    /// Starts delivering; notices go to `notify` (from the output's thread).
    func start(notify: @escaping @Sendable (DeliveryNotice) -> Void)
    /// Sends what is batched and waits up to the output's shutdown timeout for every record to be
    /// acknowledged; then stops. Returns how many records were not acknowledged (read again on restart).
    func finish() -> UInt64
    /// A reload replaces this output: take every byte written from now on, whatever the buffer's bound,
    /// so that the pipeline can be flushed into it and the new output adopt it all.
    func takeEverything()
    /// Takes over what `previous` (the same output before a reload) has not delivered, with its ledger,
    /// and stops `previous`. Called before `start`.
    func adopt(_ previous: any AcknowledgingOutput)
    /// Stops without waiting; what is unacknowledged stays so.
    func stop()
}
