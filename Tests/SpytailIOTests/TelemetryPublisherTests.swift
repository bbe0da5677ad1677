import Testing
import SpytailCore
@testable import SpytailIO

/// When the run's counters go to its observers, and what is kept for them between publications.
struct TelemetryPublisherTests {
    @Test func countersGoOutAtMostEveryIntervalAtOnceOnAStateChangeOrWhenForced() {
        var publisher = TelemetryPublisher(RunTelemetry(recentEntries: 1))
        let step = TelemetryPublisher.interval
        let looks: [(at: Duration, state: SpyState, force: Bool)] = [
            (.zero, .recording, false),                        // the first time: due
            (step / 2, .recording, false),                     // too soon
            (step / 2, .recording, true),                      // forced
            (step / 2 + .milliseconds(1), .idle, false),       // the state changed
            (step, .idle, false),                              // too soon after that
            (step * 2, .idle, false),                          // an interval later
        ]
        let due = looks.map { publisher.due(at: $0.at, state: $0.state, force: $0.force) }
        #expect(due == [true, false, true, true, false, true])
    }

    @Test func aPathsSourceIsLookedUpOnce() {
        var publisher = TelemetryPublisher(RunTelemetry(recentEntries: 1))
        var lookUps = 0
        let names = (1...3).map { _ in publisher.sourceName(of: "/l/a.log", lookUp: { lookUps += 1; return "app" }) }
        #expect(names == ["app", "app", "app"])
        #expect(lookUps == 1)
        publisher.countRead(source: "app", bytes: 10, lines: 2)
        publisher.countRead(source: "app", bytes: 5, lines: 1)
        #expect(publisher.tallies.bytesRead == ["app": 15])
        #expect(publisher.tallies.linesRead == ["app": 3])
    }
}
