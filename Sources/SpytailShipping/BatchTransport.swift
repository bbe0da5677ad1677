/// How a batching output reaches its destination: used from the output's delivery thread only.
protocol BatchTransport: AnyObject {
    /// The output's name in messages.
    var name: String { get }
    /// Something to do before a batch can go (connect, create the table); `prepare()` does it.
    var needsPreparation: Bool { get }
    func prepare() -> DeliveryOutcome
    /// Sends one batch; `.accepted` once the destination acknowledged all of it.
    func send(_ batch: RecordBuffer.Batch) -> DeliveryOutcome
    /// Drops connections after a failure (the next batch prepares again where needed).
    func reset()
    /// The output stops: releases everything.
    func close()
}
