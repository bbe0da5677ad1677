import Testing
import SpytailCore
@testable import SpytailIO

/// What observers read from the run: readiness decided in one place, and a state request's answer woken by
/// the publish that applies it.
struct RunTelemetryTests {
    @Test func readinessIsDecidedFromTheSnapshot() {
        var s = RunSnapshot()
        #expect(s.readiness == .starting && !s.readiness.isReady)
        s.started = true
        #expect(s.readiness == .ready(.recording) && s.readiness.isReady && "\(s.readiness)" == "ready (recording)")
        s.state = .idle
        #expect(s.readiness == .ready(.idle))
        s.stalledOn = "output[0]: disk full"
        #expect(s.readiness == .stalled(on: "output[0]: disk full") && "\(s.readiness)" == "output stalled: output[0]: disk full")
        s.stalledOn = nil
        s.state = .disabled
        #expect(s.readiness == .disabled && !s.readiness.isReady)
    }

    @Test func aStateAlreadyPublishedAnswersAtOnce() async {
        let telemetry = RunTelemetry(recentEntries: 1)
        let clock = ContinuousClock()
        let start = clock.now
        // A deadline far beyond any wait under load: only waiting for it can take half as long.
        #expect(await telemetry.state(.recording, publishedWithin: .seconds(600)))
        #expect(clock.now - start < .seconds(300), "it did not wait for the deadline")
    }

    @Test func aWaiterIsWokenByThePublishOfItsState() async {
        let telemetry = RunTelemetry(recentEntries: 1)
        let clock = ContinuousClock()
        let start = clock.now
        // A deadline far beyond any wait under load (the suite beside `stress-ng` once took 29 s for these 21
        // rounds of 5 ms on a starved task pool): only the deadline can take half as long.
        async let applied = telemetry.state(.idle, publishedWithin: .seconds(600))
        // Other publishes leave it waiting; the one with its state wakes it (well before the deadline).
        var published = false
        for round in 0..<2_000 where !published {
            try? await Task.sleep(for: .milliseconds(5))
            telemetry.publish { $0.linesRead["app"] = round }
            if round >= 20 {
                telemetry.publish { $0.state = .idle }
                published = true
            }
        }
        #expect(await applied)
        #expect(clock.now - start < .seconds(300), "woken by the publish, not by the deadline")
    }

    @Test func aStateNeverPublishedAnswersFalseAtTheDeadline() async {
        let telemetry = RunTelemetry(recentEntries: 1)
        telemetry.publish { $0.state = .recording }
        #expect(await telemetry.state(.disabled, publishedWithin: .milliseconds(50)) == false)
    }
}
