import Foundation
import Synchronization

/// Hands seeds out to worker threads, in order, until they run out, the time budget is spent or enough
/// seeds have failed; collects the failures. Which seeds a budget lets play depends on the machine, but each
/// seed plays alike on any thread (it has a folder of its own).
final class SeedPlays: Sendable {
    private struct Progress {
        var next = 0
        var played = 0
        var failures: [(seed: UInt64, problems: [String])] = []
        var inPlay: Set<UInt64> = []
    }

    private let seeds: [UInt64]
    private let budget: Double?
    private let stopAfter: Int?
    private let seedFile: String
    private let began = Date()
    private let progress = Mutex(Progress())

    /// `stopAfter`: no seed starts once that many have failed (each failure is shrunk afterwards; a few are
    /// enough to go on). `seedFile` names the seeds in play, for a crash the test cannot report.
    init(seeds: [UInt64], budget: Double?, stopAfter: Int?, seedFile: String) {
        self.seeds = seeds
        self.budget = budget
        self.stopAfter = stopAfter
        self.seedFile = seedFile
    }

    /// Plays seeds on `workers` threads; `play` returns what broke (empty when nothing did).
    func play(workers: Int, _ play: @Sendable @escaping (UInt64) -> [String]) {
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let seed = claim() {
                let problems = play(seed)
                finish(seed, problems)
            }
        }
    }

    /// How many seeds were played, and the failures by seed.
    var outcome: (played: Int, failures: [(seed: UInt64, problems: [String])]) {
        progress.withLock { ($0.played, $0.failures.sorted { $0.seed < $1.seed }) }
    }

    private func claim() -> UInt64? {
        progress.withLock { progress in
            if let stopAfter, progress.failures.count >= stopAfter { return nil }
            if let budget, Date().timeIntervalSince(began) > budget { return nil }
            guard progress.next < seeds.count else { return nil }
            let seed = seeds[progress.next]
            progress.next += 1
            progress.played += 1
            progress.inPlay.insert(seed)
            note(progress.inPlay)
            return seed
        }
    }

    private func finish(_ seed: UInt64, _ problems: [String]) {
        progress.withLock { progress in
            progress.inPlay.remove(seed)
            if !problems.isEmpty { progress.failures.append((seed, problems)) }
        }
    }

    private func note(_ inPlay: Set<UInt64>) {
        try? (inPlay.sorted().map(String.init).joined(separator: "\n") + "\n").write(toFile: seedFile, atomically: false, encoding: .utf8)
    }
}
