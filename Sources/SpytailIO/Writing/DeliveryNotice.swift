import SpytailCore

/// What an acknowledging output tells the run, from its own delivery thread. The run posts it to its
/// inbox and handles it on the loop's thread.
public enum DeliveryNotice: Sendable, Equatable {
    /// Records were acknowledged: checkpoints may move, a paused reading may resume.
    case acknowledged
    /// A delivery problem or its end, to be said once (`RunProblem.deliveryFailing`, `.deliveryRecovered`).
    case problem(RunProblem)
}
