import Testing
@testable import SpytailCore

/// Every move between the console's states, and what it takes, in order.
struct StateChangeTests {
    @Test(arguments: [
        (SpyState.recording, SpyState.idle, [StateChange.Step.flushPendingEntries, .startSkipping]),
        (.idle, .recording, [.flushPendingEntries, .reportSkipped]),
        (.recording, .disabled, [.sleep]),
        (.disabled, .recording, [.wakeUp]),
        (.idle, .disabled, [.flushPendingEntries, .reportSkipped, .sleep]),
        (.disabled, .idle, [.wakeUp, .flushPendingEntries, .startSkipping]),
        (.recording, .recording, []),
        (.idle, .idle, []),
        (.disabled, .disabled, []),
    ])
    func stepsInOrder(from: SpyState, to: SpyState, steps: [StateChange.Step]) {
        #expect(StateChange.steps(from: from, to: to) == steps, "\(from) → \(to)")
    }

    @Test func sigusr1SwitchesRecordingAndIdleAndIsIgnoredWhileDisabled() {
        #expect(StateChange.toggled(.recording) == .idle)
        #expect(StateChange.toggled(.idle) == .recording)
        #expect(StateChange.toggled(.disabled) == nil)
    }
}
