import Glibc
import SpytailCore
import SpytailLogGen

/// One seeded schedule for the run simulator: how each writer is rotated, and the steps in order. The
/// steps are a plain list so that a failing schedule can be shrunk by leaving steps out.
struct RunScenario: CustomStringConvertible {
    enum Step: Equatable, CustomStringConvertible {
        case write(writer: Int, lines: Int)
        /// The writer writes the first `bytes` of its next line (at most all but its newline) and the rest with its
        /// next write, reopen or rotation, as a logger does that flushes a full buffer mid-line: the run reads a
        /// file that ends inside a line.
        case writeHalf(writer: Int, bytes: Int)
        case reopen(writer: Int)
        /// The writer's container restarts into a new live file (the numbered writer, `a-N.log`; others: nothing).
        case restart(writer: Int)
        case rotate(writer: Int)
        /// A rotation's second half (copytruncate's truncate, compress's gzip).
        case finishRotation(writer: Int)
        /// inotify hands over up to `events` queued events; the loop turns once.
        case deliver(events: Int)
        /// inotify's queue overflows; the loop turns once.
        case overflow
        /// The clock moves; the loop turns once.
        case tick(milliseconds: Int)
        /// SIGTERM: the run stops cleanly.
        case stop
        /// Killed between two turns.
        case crash
        /// Killed in the next turn, after the outputs were written and before the checkpoints were.
        case crashWhileSaving
        /// The machine loses power between two turns: killed, and what was not synced is gone (the output file
        /// back to its last sync, the checkpoints back to their last durable save).
        case powerLoss
        /// Started again from the checkpoints (when down).
        case start
        case setState(SpyState)
        case reload
        /// The checkpoint file's disk fills up (every save fails with ENOSPC until it has room again) or has
        /// room again.
        case checkpointDiskFull(Bool)
        /// The second output's destination acknowledges up to `records` of the records waiting for it; the loop
        /// turns once.
        case acknowledge(records: Int)
        /// The output file's disk fills up, `bytes` short of full (a write then takes what fits and fails with
        /// ENOSPC), or has room again (nil).
        case outputDiskFull(bytes: Int?)
        /// The output file's syncs fail (EIO) from now on, or work again: checkpoints cannot be made durable.
        case outputSyncFails(Bool)
        /// The process's descriptors run out (something else in it holds them: viewers' connections, a limit
        /// lowered) or are free again. Played at the gauge the run asks before it opens a file, and at every open of a
        /// log file, which fails (EMFILE) meanwhile; the loop turns once.
        case descriptorsRunOut(Bool)
        /// Another thread of the process takes the descriptors the run's gauge saw free (viewers connecting between
        /// the gauge and the open), or gives them back: the gauge still says they are free, but every `open(2)` of a
        /// log file fails (EMFILE) meanwhile; the loop turns once.
        case descriptorsTaken(Bool)

        var description: String {
            switch self {
            case .write(let w, let n): "write(w\(w), \(n))"
            case .writeHalf(let w, let n): "writeHalf(w\(w), \(n))"
            case .reopen(let w): "reopen(w\(w))"
            case .restart(let w): "restart(w\(w))"
            case .rotate(let w): "rotate(w\(w))"
            case .finishRotation(let w): "finishRotation(w\(w))"
            case .deliver(let n): "deliver(\(n))"
            case .overflow: "overflow"
            case .tick(let ms): "tick(\(ms)ms)"
            case .stop: "stop"
            case .crash: "crash"
            case .crashWhileSaving: "crashWhileSaving"
            case .powerLoss: "powerLoss"
            case .start: "start"
            case .setState(let state): "setState(\(state))"
            case .reload: "reload"
            case .checkpointDiskFull(let full): "checkpointDiskFull(\(full))"
            case .acknowledge(let n): "acknowledge(\(n))"
            case .outputSyncFails(let fails): "outputSyncFails(\(fails))"
            case .descriptorsRunOut(let out): "descriptorsRunOut(\(out))"
            case .descriptorsTaken(let taken): "descriptorsTaken(\(taken))"
            case .outputDiskFull(let room): "outputDiskFull(\(room.map { "\($0) bytes left" } ?? "room again"))"
            }
        }
    }

    let seed: UInt64
    /// Half the seeds also have the second output (`SPYTAIL_RUNSIM_DESTINATION=0`: none, each seed's schedule as
    /// it was before there was one).
    static let withDestination = getenv("SPYTAIL_RUNSIM_DESTINATION").map { String(cString: $0) != "0" } ?? true
    /// Per writer: create or copytruncate, compress, delaycompress.
    let modes: [(SimulatedHost.Mode, compress: Bool, delay: Bool)]
    /// Whether the run starts after the first steps (a first start over history already rotated).
    let startsLate: Bool
    /// Whether the run has a second output acknowledged later (`SimulatedDelivery`), as a network output is.
    let delivers: Bool
    var steps: [Step]

    /// A schedule written out (a regression kept from a shrunk failure); `seed`: the one it was shrunk from, when
    /// the play needs its draws (what happens while the run waits or resumes) to fail the same way.
    init(modes: [(SimulatedHost.Mode, compress: Bool, delay: Bool)], startsLate: Bool = false, delivers: Bool = false, steps: [Step],
         seed: UInt64 = 0) {
        self.seed = seed
        self.modes = modes
        self.startsLate = startsLate
        self.delivers = delivers
        self.steps = steps
    }

    /// The schedule of `seed`: 40–120 steps.
    init(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        self.seed = seed
        modes = (0..<3).map { _ in
            (rng.below(3) == 0 ? .copytruncate : .create, compress: rng.below(2) == 0, delay: rng.below(2) == 0)
        }
        startsLate = rng.below(3) == 0
        // The second output's draws come from a generator of their own: the rest of a seed's schedule is the one
        // it had before there was a second output.
        var answers = SplitMix64(seed: seed ^ 0xACC)
        // Which kills are power losses: a draw of its own too.
        var power = SplitMix64(seed: seed ^ 0x90FF)
        // When the output's disk fills up and drains: one more.
        var disk = SplitMix64(seed: seed ^ 0xD15C)
        var diskFull = false
        // When the output's syncs fail: one more.
        var sync = SplitMix64(seed: seed ^ 0x5F1C)
        var syncFails = false
        // Which writes leave a line half written: one more.
        var halves = SplitMix64(seed: seed ^ 0x4A1F)
        // When the process's descriptors run out and are free again: one more.
        var descriptors = SplitMix64(seed: seed ^ 0xFD5)
        var descriptorsOut = false
        // When another thread takes descriptors behind the gauge's back, briefly: one more.
        var taken = SplitMix64(seed: seed ^ 0x7A4E)
        var descriptorsTaken = false
        // When the numbered writer's container restarts: one more.
        var restarts = SplitMix64(seed: seed ^ 0x8E57)
        delivers = answers.below(2) == 0 && Self.withDestination
        var steps: [Step] = []
        var up = !startsLate
        let count = 40 + rng.below(81)
        for i in 0..<count {
            if !up && (startsLate ? i >= 6 : true) && rng.below(3) == 0 {
                steps.append(.start)
                up = true
                continue
            }
            let w = rng.below(3)
            switch rng.below(100) {
            case 0..<30: steps.append(.write(writer: w, lines: 1 + rng.below(20)))
            case 30..<38: steps.append(.reopen(writer: w))
            case 38..<45: steps.append(.rotate(writer: w))
            case 45..<50: steps.append(.finishRotation(writer: w))
            case 50..<72: steps.append(.deliver(events: 1 + rng.below(12)))
            case 72..<74: steps.append(.overflow)
            case 74..<86: steps.append(.tick(milliseconds: [50, 300, 700, 1200, 2500][rng.below(5)]))
            case 86..<88 where up:
                steps.append(.stop)
                up = false
            case 88..<90 where up:
                steps.append(power.below(2) == 0 ? .powerLoss : .crash)
                up = false
            case 90..<92 where up:
                steps.append(.crashWhileSaving)
                up = false
            case 92..<95: steps.append(.setState(rng.below(2) == 0 ? .disabled : .recording))
            case 95..<97: steps.append(.reload)
            case 97: steps.append(.checkpointDiskFull(rng.below(2) == 0))
            default: steps.append(.write(writer: w, lines: 1))
            }
            if case .write = steps.last, halves.below(4) == 0 { steps.append(.writeHalf(writer: w, bytes: 1 + halves.below(30))) }
            if delivers && answers.below(3) == 0 { steps.append(.acknowledge(records: [1, 5, 20, 100][answers.below(4)])) }
            if disk.below(diskFull ? 6 : 30) == 0 {
                diskFull.toggle()
                steps.append(.outputDiskFull(bytes: diskFull ? [0, 100, 2000][disk.below(3)] : nil))
            }
            if descriptors.below(descriptorsOut ? 6 : 40) == 0 {
                descriptorsOut.toggle()
                steps.append(.descriptorsRunOut(descriptorsOut))
            }
            if taken.below(descriptorsTaken ? 4 : 40) == 0 {
                descriptorsTaken.toggle()
                steps.append(.descriptorsTaken(descriptorsTaken))
            }
            if restarts.below(25) == 0 { steps.append(.restart(writer: 0)) }
            if sync.below(syncFails ? 8 : 60) == 0 {
                syncFails.toggle()
                steps.append(.outputSyncFails(syncFails))
            }
        }
        self.steps = steps
    }

    var description: String {
        let modeText = modes.enumerated().map { i, m in
            "w\(i): \(m.0)\(m.compress ? (m.delay ? " delaycompress" : " compress") : "")"
        }.joined(separator: ", ")
        return "seed \(seed) (\(modeText)\(startsLate ? ", starts late" : "")\(delivers ? ", a destination that acknowledges" : "")): " + steps.map(\.description).joined(separator: " ")
    }
}
