import Foundation
import Testing

/// The run loop under the deterministic simulator (`SimulatedRun`): each seed is a schedule of writes,
/// logrotate and logback rotations, inotify deliveries and overflows, clock moves, SIGTERM stops, kills
/// (between turns and in the middle of a checkpoint save), restarts from the checkpoints, state switches and
/// reloads. A failure is shrunk to a short schedule and printed with the command that replays it.
///
/// `SPYTAIL_RUNSIM_SEEDS=N` runs seeds 1…N, `SPYTAIL_RUNSIM_SEED=S` runs S alone.
/// `SPYTAIL_RUNSIM_COUNT=1` lists every failing seed without shrinking. `SPYTAIL_RUNSIM_TRACE=1` also plays the shrunk schedule step by step, with what the run said and watched.
/// The seed being played is kept in `$TMPDIR/spytail-run-sim.seed` for a crash the test cannot report.
///
/// Not in the default run: it still fails about 1.4 % of seeds, in classes the README lists ("Run-loop
/// simulator"), and a seed does not always replay alike (Swift's per-process hashing orders the tailer's
/// tables, and file times tick by the kernel's clock). CI runs 10,000 seeds as a report. The failures it
/// found and that are fixed are kept as short schedules in `RunScheduleTests`, which do run by default.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SPYTAIL_RUNSIM_SEEDS"] != nil
                                 || ProcessInfo.processInfo.environment["SPYTAIL_RUNSIM_SEED"] != nil))
struct RunSimulationTests {
    @Test func seededSchedulesLoseNothingAndDoubleOnlyWhatAKillLeftUnsaved() {
        let environment = ProcessInfo.processInfo.environment
        let seeds: [UInt64] = environment["SPYTAIL_RUNSIM_SEED"].flatMap { UInt64($0) }.map { [$0] }
            ?? Array(1...UInt64(environment["SPYTAIL_RUNSIM_SEEDS"].flatMap { Int($0) } ?? 2000))
        let seedFile = (environment["TMPDIR"] ?? "/tmp") + "/spytail-run-sim.seed"
        var failed = 0
        let counting = environment["SPYTAIL_RUNSIM_COUNT"] == "1"  // every failing seed listed, none shrunk
        let tracing = environment["SPYTAIL_RUNSIM_TRACE"] == "1"  // with counting: each seed's own play traced
        // `SPYTAIL_RUNSIM_SECONDS=T`: stop starting seeds after T seconds (CI: 10,000 seeds or 2 minutes).
        let budget = environment["SPYTAIL_RUNSIM_SECONDS"].flatMap { Double($0) }
        let began = Date()
        var played = 0
        for seed in seeds {
            if let budget, Date().timeIntervalSince(began) > budget { break }
            played += 1
            try? "\(seed)\n".write(toFile: seedFile, atomically: false, encoding: .utf8)
            let scenario = RunScenario(seed: seed)
            let problems = SimulatedRun(scenario, trace: counting && tracing).play()
            guard !problems.isEmpty else { continue }
            failed += 1
            if counting {
                print("seed \(seed): \(problems.joined(separator: "; "))")
                continue
            }
            let short = Self.shrink(scenario)
            if tracing { _ = SimulatedRun(short, trace: true).play() }
            Issue.record("""
                seed \(seed): \(problems.joined(separator: "; "))
                shrunk to \(short.steps.count) of \(scenario.steps.count) steps: \(short)
                what the short one breaks: \(SimulatedRun(short).play().joined(separator: "; "))
                replay: SPYTAIL_RUNSIM_SEED=\(seed) swift test --filter RunSimulationTests
                """)
            if failed >= 3 { break }  // each failure is shrunk; three are enough to go on
        }
        #expect(failed == 0, "\(failed) of \(played) seeds failed")
    }

    /// What kind of failure a problem is (a shorter schedule must fail the same way to count).
    static func kinds(_ problems: [String]) -> Set<String> {
        let phrases = ["lost, and", "delivered twice", "another id", "never written", "out of order",
                       "files open", "start failed", "run failed"]
        return Set(problems.compactMap { problem in phrases.first { problem.contains($0) } })
    }

    /// Leaves out chunks of steps, halving the chunk size, as long as the schedule still fails the same way.
    static func shrink(_ scenario: RunScenario) -> RunScenario {
        let wanted = kinds(SimulatedRun(scenario).play())
        var best = scenario
        var chunk = max(1, best.steps.count / 2)
        while chunk >= 1 {
            var start = 0
            while start < best.steps.count {
                var candidate = best
                candidate.steps.removeSubrange(start..<min(start + chunk, candidate.steps.count))
                if !kinds(SimulatedRun(candidate).play()).isDisjoint(with: wanted) { best = candidate } else { start += chunk }
            }
            chunk /= 2
        }
        return best
    }
}
