/// What moving between the console's states (`recording`, `idle`, `disabled`) takes, in order: the decision
/// the tailer used to make inline, as a table (`steps(from:to:)`) its driver carries out step by step.
public enum StateChange {
    public enum Step: Sendable, Equatable {
        /// Leaving `disabled`: take the new state at once, watch the folders again, reopen the parked files
        /// and look at everything (what changed while disabled is read under the new state).
        case wakeUp
        /// An entry the multiline assembler still holds was read under the old state: it goes out (recording)
        /// or into the gap (idle) now, not whenever its idle timeout hands it out.
        case flushPendingEntries
        /// Entering `idle`: each open file notes where exporting stopped.
        case startSkipping
        /// Leaving `idle`: what each file read meanwhile is reported as one `idle` gap.
        case reportSkipped
        /// Entering `disabled`: every open file is parked (position kept, descriptor closed) and every watch
        /// but the config's folder dropped.
        case sleep
    }

    /// The steps from `old` to `new`, in the order they are carried out (none when they are the same). The
    /// state itself changes after `reportSkipped` and before `sleep` (at once with `wakeUp`).
    public static func steps(from old: SpyState, to new: SpyState) -> [Step] {
        guard old != new else { return [] }
        var steps: [Step] = []
        if old == .disabled { steps.append(.wakeUp) }
        if old == .idle || new == .idle { steps.append(.flushPendingEntries) }
        if new == .idle { steps.append(.startSkipping) }
        if old == .idle { steps.append(.reportSkipped) }
        if new == .disabled { steps.append(.sleep) }
        return steps
    }

    /// SIGUSR1 switches recording and idle; nil while disabled (the signal is ignored, and said so).
    public static func toggled(_ state: SpyState) -> SpyState? {
        switch state {
        case .recording: .idle
        case .idle: .recording
        case .disabled: nil
        }
    }
}
