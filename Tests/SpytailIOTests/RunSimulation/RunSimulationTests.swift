import Foundation
@testable import SpytailIO
import Testing

/// The run loop under the deterministic simulator (`SimulatedRun`): each seed is a schedule of writes,
/// logrotate and logback rotations, inotify deliveries and overflows, clock moves, SIGTERM stops, kills
/// (between turns and in the middle of a checkpoint save), restarts from the checkpoints, state switches and
/// reloads. A failure is shrunk to a short schedule and printed with the command that replays it.
///
/// The default run plays seeds 1…100 (about 2 s), on as many threads as there are cores
/// (`SPYTAIL_RUNSIM_WORKERS=N` to choose); `SPYTAIL_RUNSIM_SEEDS=N` plays seeds 1…N (`SPYTAIL_RUNSIM_FIRST=F`: F…F+N−1),
/// `SPYTAIL_RUNSIM_SEED=S` plays S alone, `SPYTAIL_RUNSIM_SECONDS=T` starts no seed after T seconds (CI: 10,000
/// seeds or 2 minutes, failing the build). `SPYTAIL_RUNSIM_COUNT=1` lists every failing seed without shrinking.
/// `SPYTAIL_RUNSIM_TRACE=1` also plays the shrunk schedule step by step, with what the run said and watched
/// (with `COUNT`, each seed's own play, with what the run would save and what the folders hold before each step,
/// and its folder kept). The seeds being played are kept in `$TMPDIR/spytail-run-sim.seed` for a crash the test
/// cannot report.
///
/// To replay a seed, set `SWIFT_DETERMINISTIC_HASHING=1` (the tailer's tables are Swift dictionaries, ordered
/// by per-process hashing, as the replay command printed does); a play can still differ where the file system
/// reuses a deleted file's inode, or not. A failure's shrunk schedule is what to keep, as a test in
/// `RunScheduleTests` (each one there was found so).
@Suite(.serialized)
struct RunSimulationTests {
    @Test func seededSchedulesLoseNothingAndDoubleOnlyWhatAKillLeftUnsaved() {
        let environment = ProcessInfo.processInfo.environment
        let first = environment["SPYTAIL_RUNSIM_FIRST"].flatMap { UInt64($0) } ?? 1
        let seeds: [UInt64] = environment["SPYTAIL_RUNSIM_SEED"].flatMap { UInt64($0) }.map { [$0] }
            ?? Array(first..<first + UInt64(max(1, environment["SPYTAIL_RUNSIM_SEEDS"].flatMap { Int($0) } ?? 100)))
        let counting = environment["SPYTAIL_RUNSIM_COUNT"] == "1"  // every failing seed listed, none shrunk
        let tracing = environment["SPYTAIL_RUNSIM_TRACE"] == "1"  // with counting: each seed's own play traced
        // `SPYTAIL_RUNSIM_SECONDS=T`: stop starting seeds after T seconds (CI: 10,000 seeds or 2 minutes).
        let budget = environment["SPYTAIL_RUNSIM_SECONDS"].flatMap { Double($0) }
        // Seeds are independent (each plays in a folder of its own), so they are played on every core; a traced
        // play keeps to one, so its lines do not interleave.
        let workers = max(1, tracing ? 1 : environment["SPYTAIL_RUNSIM_WORKERS"].flatMap { Int($0) } ?? WorkerThreads.availableCores)
        let plays = SeedPlays(seeds: seeds, budget: budget, stopAfter: counting ? nil : 3,
                              seedFile: (environment["TMPDIR"] ?? "/tmp") + "/spytail-run-sim.seed")
        plays.play(workers: workers) { seed in
            SimulatedRun(RunScenario(seed: seed), trace: counting && tracing).play()
        }
        let (played, failures) = plays.outcome
        for (seed, problems) in failures {
            if counting {
                print("seed \(seed): \(problems.joined(separator: "; "))")
                continue
            }
            let scenario = RunScenario(seed: seed)
            let short = Self.shrink(scenario)
            if tracing { _ = SimulatedRun(short, trace: true).play() }
            Issue.record("""
                seed \(seed): \(problems.joined(separator: "; "))
                shrunk to \(short.steps.count) of \(scenario.steps.count) steps: \(short)
                what the short one breaks: \(SimulatedRun(short).play().joined(separator: "; "))
                replay: SWIFT_DETERMINISTIC_HASHING=1 SPYTAIL_RUNSIM_SEED=\(seed) SPYTAIL_RUNSIM_TRACE=1 swift test --filter RunSimulationTests
                """)
        }
        print("run-loop simulator: \(played) seeds played (of \(seeds.count), on \(workers) threads), \(failures.count) failed")
        #expect(failures.count == 0, "\(failures.count) of \(played) seeds failed")
    }

    /// What kind of failure a problem is (a shorter schedule must fail the same way to count).
    static func kinds(_ problems: [String]) -> Set<String> {
        let phrases = ["lost, and", "ahead of the output", "delivered twice", "another id", "sharing one id", "never written", "out of order",
                       "files open", "start failed", "run failed", "not a whole line"]
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
