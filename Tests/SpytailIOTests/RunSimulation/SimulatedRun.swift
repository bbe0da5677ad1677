import Foundation
import Glibc
import SpytailCore
@testable import SpytailIO
import SpytailLogGen
import SpytailTestSupport

/// Plays one `RunScenario` against the production tailer: the same `Tailer`, its machines and its reads of
/// real files, with the edges swapped — inotify is the host's queued events (`RecordingFileEvents`), the clock
/// is a `ManualClock`, the checkpoint store (a `RecordingCheckpointStore`) gives a restart the last save that completed. The loop is turned by
/// the simulator (`nextBatch`/`turn`), one step at a time, on this thread: nothing waits on real time.
final class SimulatedRun {
    let scenario: RunScenario
    let directory: TemporaryDirectory
    let host: SimulatedHost
    /// Checkpoints as a killed process leaves them: a restart loads the last save that completed.
    let checkpoints = RecordingCheckpointStore()
    let reporter = RecordingEventReporter()
    private let configPath: String
    private var tailer: Tailer<ManualClock>?
    private var clock = ManualClock()
    private var spy = RecordingFileEvents()
    private(set) var crashes = 0
    /// Clean stops whose positions could not be saved (the checkpoint disk full): a restart repeats what a kill
    /// would, with the same ids.
    private var stopsUnsaved = 0
    /// The checkpoint file's disk is full: every save fails until it has room again.
    private var checkpointDiskFull = false
    private var checkpointDiskError: CheckpointStoreError? {
        checkpointDiskFull ? CheckpointStoreError(description: "No space left on device (ENOSPC)") : nil
    }
    /// The process's descriptors have run out (`descriptorsRunOut`): the run's gauge says none is free, and every
    /// `open(2)` of a log file fails with EMFILE.
    private var descriptorsOut = false
    /// Another thread holds the descriptors the gauge sees free (`descriptorsTaken`): the gauge says yes, every
    /// `open(2)` of a log file fails with EMFILE.
    private var descriptorsTaken = false
    /// The run's state as last asked (a new process starts recording, the config's state).
    private var recording = true
    /// What broke an invariant, step by step.
    private(set) var problems: [String] = []
    private var stepIndex = 0
    /// What the world does while the run waits inside a step (from the seed, so replays wait alike).
    private var meanwhile: SplitMix64
    /// What the world does between a resume's look at a chain and its opens (a draw of its own, so the rest
    /// of a seed plays as before).
    private var betweenLookAndOpen: SplitMix64
    /// The output as it grows, and the check at each save that no checkpoint is ahead of it.
    private let output: SimulatedOutput
    private let savedAhead: SavedAheadCheck
    /// The second output (schedules that have one): its destination, what it acknowledged, and the same check
    /// against it — a checkpoint never passes what the destination confirmed.
    private let destination: SimulatedDestination?
    private let acknowledged: SimulatedOutput?
    private let savedAheadOfAcknowledged: SavedAheadCheck?
    /// When the destination answers while the run waits, and whether it answers at a stop (a draw of its own).
    private var answers: SplitMix64
    /// When a full output disk drains while the run waits (a draw of its own).
    private var drains: SplitMix64
    /// The disk the output file is on, and what opens the run's outputs.
    private let disk: SimulatedDisk
    private let opener: SimulatedOpener

    init(_ scenario: RunScenario, trace: Bool = false) {
        self.scenario = scenario
        self.trace = trace
        directory = TemporaryDirectory("spytail-sim")
        host = SimulatedHost(root: directory.path, modes: scenario.modes)
        meanwhile = SplitMix64(seed: scenario.seed ^ 0x5EED)
        betweenLookAndOpen = SplitMix64(seed: scenario.seed ^ 0x100C)
        answers = SplitMix64(seed: scenario.seed ^ 0xA115)
        drains = SplitMix64(seed: scenario.seed ^ 0xD8A1)
        configPath = directory.write("c.json", host.config(delivers: scenario.delivers))
        output = SimulatedOutput(path: directory.file("out/out.jsonl"), writers: host.writers.map(\.name))
        savedAhead = SavedAheadCheck(output: output)
        if scenario.delivers {
            // A small buffer: reading pauses behind it often.
            destination = SimulatedDestination(path: directory.file("out/acknowledged.jsonl"), bound: 30)
            let acknowledged = SimulatedOutput(path: directory.file("out/acknowledged.jsonl"), writers: host.writers.map(\.name))
            self.acknowledged = acknowledged
            savedAheadOfAcknowledged = SavedAheadCheck(output: acknowledged)
        } else {
            (destination, acknowledged, savedAheadOfAcknowledged) = (nil, nil, nil)
        }
        disk = SimulatedDisk(path: directory.file("out/out.jsonl"))
        opener = SimulatedOpener(disk: disk, destination: destination)
        checkpoints.onSave = { [unowned self] saving in
            guard checkpoints.saveError == nil else { return }  // a save that fails (killed mid-save, a full disk) is never read
            problems += savedAhead.problems(saving: saving).map { "step \(stepIndex): \($0)" }
            problems += (savedAheadOfAcknowledged?.problems(saving: saving) ?? []).map { "step \(stepIndex): destination: \($0)" }
        }
    }

    /// A traced play keeps its folder (named at the end) to look at.
    deinit {
        if trace { print("kept: \(directory.path)") } else { directory.remove() }
    }

    /// Plays every step, settles (writers done, everything delivered, the clock past every timer), stops the
    /// run, and returns what broke.
    func play() -> [String] {
        if !scenario.startsLate { start() }
        for (i, step) in scenario.steps.enumerated() {
            stepIndex = i
            if trace { sayPositions() }
            perform(step)
            if trace { say("\(i) \(step)") }
            if problems.count > 0 { return problems }
        }
        stepIndex = scenario.steps.count
        settle()
        if trace { say("settled") }
        output.catchUp()
        problems += SimulatedOutcome(host: host, records: output.records, torn: output.torn, reporter: reporter, crashes: crashes + stopsUnsaved).problems
        if let acknowledged {
            acknowledged.catchUp()
            problems += SimulatedOutcome(host: host, records: acknowledged.records, torn: acknowledged.torn, reporter: reporter, crashes: crashes + stopsUnsaved)
                .problems.map { "destination: \($0)" }
        }
        return problems
    }

    private func perform(_ step: RunScenario.Step) {
        switch step {
        case .write(let w, let n): host.write(w, count: n)
        case .writeHalf(let w, let n): host.writeHalf(w, bytes: n)
        case .reopen(let w): host.reopen(w)
        case .restart(let w): whileStalledExcused { host.restart(w) }
        case .rotate(let w): whileStalledExcused { host.rotate(w) }
        case .finishRotation(let w): whileStalledExcused { host.finish(w) }
        case .deliver(let n): turn(with: take(n).map { .watch($0) })
        case .overflow:
            host.dropQueued()
            turn(with: [.watch(.overflow)])
        case .tick(let ms):
            host.writeBack()  // the kernel's periodic write-back of the page cache
            guard tailer != nil else { return }
            clock.advance(by: .milliseconds(ms))
            turn(with: [])
        case .stop: stop()
        case .crash: crash()
        case .powerLoss: powerLoss()
        case .crashWhileSaving:
            guard tailer != nil else { return }
            checkpoints.saveError = CheckpointStoreError(description: "killed while saving")
            turn(with: take(host.queued.count).map { .watch($0) })
            checkpoints.saveError = checkpointDiskError
            crash()
        case .start: if tailer == nil { start() }
        case .setState(let state):
            guard tailer != nil else { return }
            recording = state == .recording
            turn(with: [.request(.setState(state))])
        case .reload: turn(with: [.request(.reload)])
        case .checkpointDiskFull(let full):
            checkpointDiskFull = full
            checkpoints.saveError = checkpointDiskError
        case .outputDiskFull(let room):
            disk.room = room
            turn(with: [])
        case .descriptorsRunOut(let out):
            descriptorsOut = out
            turn(with: [])
        case .descriptorsTaken(let taken):
            descriptorsTaken = taken
            turn(with: [])
        case .outputSyncFails(let fails):
            disk.syncFails = fails
            turn(with: [])
        case .acknowledge(let n):
            guard tailer != nil, let delivery = destination?.current else { return }
            delivery.acknowledge(n)
            turn(with: [])
        }
    }

    /// Reading is paused behind a full output (backpressure): what a rotation destroys now (copytruncate's
    /// window, a copy deleted) is lost however promptly the run was told of it, as after a kill. The run must
    /// still say so with a gap; the end-of-run check counts the line as destroyed, not as lost by the run.
    /// Likewise a file the run could not open for want of a descriptor (`descriptorsRunOut`, `descriptorsTaken`), live
    /// or a rotated copy its writer still appends to: nobody reads it until one is free, so what a rotation destroys
    /// in it meanwhile is lost, and the run never had a position in it to name in a gap. The lines follow the copy
    /// through the renames and the gzip that come before the rotation that deletes it (`unopenedLines`).
    private func whileStalledExcused(_ change: () -> Void) {
        // Disabled (or idle) after a pause, the run reads nothing it was told of while paused until it records again.
        guard let run = tailer else { return change() }
        if run.condition.isStalled || !recording { return excusingWhatItDestroys(change) }
        let unopened = run.awaitingDescriptors
        guard !unopened.isEmpty else {
            unopenedLines = []  // every path it waited for was opened: from here on, it reads what it is told of
            return change()
        }
        // Each writer's live file as it is before the change (a restart moves its writer on to a new one).
        let live = host.writers.map { host.abs($0.live) }
        for path in unopened { unopenedLines.formUnion(host.lines(at: path)) }
        excusingWhatItDestroys(change, where: { unopened.contains(live[$0.writer]) || unopenedLines.contains($0) })
    }

    /// Lines that sat, unread, in a path the run waited to open for want of a descriptor, since it last waited for
    /// none: wherever a rotation moves them before it deletes them, the run could not have read them.
    private var unopenedLines: Set<SimulatedHost.Line> = []

    /// Makes `change`, and what it destroys (of the lines `excused` picks) counts as destroyed before the run could
    /// read it (not told).
    private func excusingWhatItDestroys(_ change: () -> Void, where excused: (SimulatedHost.Line) -> Bool = { _ in true }) {
        let before = Set(host.destroyed.keys)
        change()
        host.untell(host.destroyed.keys.filter { !before.contains($0) && excused($0) })
    }

    /// Writers reopen and finish their rotations, the checkpoint disk has room, the run (started if down,
    /// recording) is handed every event and the clock moves past the rotated files' quiet time until nothing is
    /// left; then SIGTERM.
    private func settle() {
        for w in host.writers.indices {
            whileStalledExcused { host.finish(w) }
            host.reopen(w)
        }
        perform(.checkpointDiskFull(false))  // room again: the run's saves recover
        (disk.room, disk.syncFails) = (nil, false)  // and its output
        (descriptorsOut, descriptorsTaken) = (false, false)  // and descriptors are free again: paths left for want of one are looked at again
        if tailer == nil { start() }
        perform(.setState(.recording))
        // Six rounds; with a destination, as many more as it takes to deliver everything (it answers every round,
        // and reading pauses behind its buffer of 30 records: a schedule writes a few thousand lines at most, so a
        // thousand rounds are plenty, and a run still paused after them is a problem of its own).
        var waiting: Bool { tailer.map { $0.condition.isStalled || destination?.current?.waitingCount ?? 0 > 0 } ?? false }
        for round in 0..<1000 {
            if round >= 6 && !waiting { break }
            destination?.current?.acknowledge(Int.max)
            turn(with: take(host.queued.count).map { .watch($0) })
            clock.advance(by: .milliseconds(1500))
            turn(with: [])
        }
        if waiting { problems.append("settling: reading still paused behind the destination after 1,000 rounds") }
        destination?.current?.answersAtFinish = true
        stop()
    }

    // MARK: the process

    private func start() {
        clock = ManualClock()
        spy = RecordingFileEvents()
        let spy = self.spy
        host.watched = { spy.currentlyWatched }
        checkpoints.loadResult = .success(checkpoints.saves.last?.saved ?? SavedPositions())
        do {
            let run = try Tailer(configFile: ConfigFile(path: configPath), store: checkpoints, events: reporter, clock: clock,
                                 fileEvents: spy.factory, remote: opener)
            tailer = run
            recording = true
            run.onWait = { [unowned self] in self.whileWaiting() }
            run.descriptorsFree = { [unowned self] count in !self.descriptorsOut && Syscall.canOpenDescriptors(count) }
            run.openFailure = { [unowned self] in self.descriptorsOut || self.descriptorsTaken ? Errno(EMFILE) : nil }  // also where no gauge was asked
            run.onChainLooked = { [unowned self] _ in self.whileResuming() }
            run.open()
            try run.begin()
            check(run)
        } catch {
            problems.append("step \(stepIndex): start failed: \(error)")
        }
    }

    /// One loop turn with `events` (inotify's are pushed as its thread would; the others are the loop's own).
    private func turn(with events: [RunEvent]) {
        guard let run = tailer else { return }
        for event in events {
            if case .watch(let watch) = event { spy.deliver(watch) } else { run.inbox.push(event) }
        }
        do {
            if try run.turn(run.nextBatch(waiting: .zero)) == .stop {
                try run.shutDown()
                tailer = nil
                host.watched = { [] }
                host.dropQueued()  // inotify's queue ends with the process
                return
            }
            check(run)
        } catch {
            problems.append("step \(stepIndex): the run failed: \(error)")
        }
    }

    /// Queued inotify events for the run (none while it is down: they die with it).
    private func take(_ count: Int) -> [WatchEvent] {
        guard tailer != nil else { return [] }
        return host.take(count, recording: recording)
    }

    private func stop() {
        guard let run = tailer else { return }
        let unopened = run.awaitingDescriptors
        defer { if tailer == nil { unopenedDied(unopened) } }
        if checkpointDiskFull { stopsUnsaved += 1 }
        let delivery = destination?.current
        if let delivery, answers.below(3) == 0 { delivery.answersAtFinish = false }
        let said = reporter.events.count
        // Reading paused behind a full output that has room again, its retry not due yet: the stop's flush goes
        // through, and what the run was told of during the pause stays unread in the files, as at any stop.
        let paused = run.condition.isStalled
        turn(with: [.signal(SIGTERM)])
        // An output still full at the stop: its checkpoints stay where the data it took ends, before lines other
        // outputs have (the run says so, `stillFullAtStop`): they are sent again at the next start, with their ids.
        if reporter.events[said...].contains(where: { if case .problem(.stillFullAtStop) = $0 { true } else { false } }) {
            stopsUnsaved += 1
            undeliveredDied(stalled: true)
        } else if paused {
            undeliveredDied(stalled: true)
        }
        // Records the destination did not acknowledge in time are read again at the next start, and with them
        // the lines after the last set of checkpoints it had acknowledged: repeats, as after a kill.
        if let delivery, delivery.leftAtFinish > 0 {
            stopsUnsaved += 1
            undeliveredDied(stalled: false)
        }
        // Stopped while disabled: what it was told of during a pause before, it never read.
        if !recording { undeliveredDied(stalled: true) }
    }

    /// The process ended with lines it was told of not delivered everywhere: records the destination had not
    /// acknowledged died with it, and lines told while reading was paused behind a full output (`stalled`) were
    /// never read. They must be read again from the files; a line a rotation destroys before the next start is
    /// lost however promptly the run was told of it (only a buffer on disk would keep it), so it counts as
    /// destroyed, not as lost by the run.
    private func undeliveredDied(stalled: Bool) {
        acknowledged?.catchUp()
        if stalled { output.catchUp() }
        host.untell(host.told.filter { line in
            !(acknowledged?.delivered.contains(line) ?? true) || (stalled && !output.delivered.contains(line))
        })
    }

    /// The process ended while live files it was told of waited for a descriptor (`descriptorsRunOut`): it never
    /// read their lines. They must be read from the files after the next start; what a rotation destroys before
    /// then is lost however promptly the run was told of it (as in `whileStalledExcused` while it runs).
    private func unopenedDied(_ unopened: Set<String>) {
        guard !unopened.isEmpty else { return }
        output.catchUp()
        host.untell(host.told.filter { line in
            !output.delivered.contains(line) && host.paths(holding: line).contains { unopened.contains(host.abs($0)) }
        })
    }

    /// Killed: nothing more is flushed or saved; inotify's queue dies with the process.
    private func crash() {
        guard let run = tailer else { return }
        let stalled = run.condition.isStalled || !recording  // disabled after a pause: what it was told of then, unread
        unopenedDied(run.awaitingDescriptors)
        tailer = nil
        crashes += 1
        destination?.processDied()
        undeliveredDied(stalled: stalled)
        host.watched = { [] }
        host.dropQueued()
    }

    /// The power went: killed, the output file back to its length at its last sync, the checkpoints back to their
    /// last durable save, the writers' files back to their last write-back. The records the cut took are gone:
    /// their lines must be read again from the files, unless the files lost them too.
    private func powerLoss() {
        guard tailer != nil else { return }
        crash()
        disk.powerLoss()
        checkpoints.loseUnsynced()
        savedAhead.forget()
        undeliveredDied(stalled: true)
        let durable = checkpoints.saves.last?.checkpoints ?? []
        for cut in host.powerCut() {
            host.untell(cut.lines)
            // The restart sees the cut only where a durable checkpoint of this content had read past it.
            let read = durable.filter { $0.fingerprint == cut.fingerprint }.map(\.offset).max() ?? 0
            host.cut(cut, checkpoint: read)
        }
    }

    /// The run waits inside a step (a copy's arrival, room in an output): a compressor may finish, inotify
    /// hands over what it has, and time passes (the wait ends at its deadline at the latest).
    private func whileWaiting() {
        // What this destroys goes while the run is busy in the very turn it was told in.
        excusingWhatItDestroys { for w in host.writers.indices where meanwhile.below(2) == 0 { host.finish(w) } }
        for event in take(host.queued.count) { spy.deliver(event) }
        if let delivery = destination?.current, answers.below(2) == 0 { delivery.acknowledge(1 + answers.below(40)) }
        // A full output disk drains while the run waits for it (a catch-up waits in place), in a few waits.
        if disk.room != nil, drains.below(4) == 0 { disk.room = nil }
        clock.advance(by: .milliseconds(250))
    }

    /// A resume has looked at a chain and planned its reads: a compressor (or copytruncate's truncate) may
    /// finish before it opens anything, as kubelet's compressor did in the node test under load.
    private func whileResuming() {
        excusingWhatItDestroys { for w in host.writers.indices where betweenLookAndOpen.below(4) == 0 { host.finish(w) } }
    }

    /// Tracing: each step printed with what the run reported meanwhile and what it watches.
    private let trace: Bool
    private var said = 0

    private func say(_ step: String) {
        let events = reporter.events
        print("  \(step)  [\(tailer == nil ? "down" : "watching " + spy.currentlyWatched.map { $0.replacingOccurrences(of: directory.path, with: "") }.sorted().joined(separator: " "))]")
        for event in events[said...] { print("      \(event)".replacingOccurrences(of: directory.path, with: "")) }
        said = events.count
    }

    /// Tracing: what the run would save now (or loads, when down) and what the folders hold.
    private func sayPositions() {
        let saved = tailer?.savedPositions() ?? checkpoints.saves.last?.saved ?? SavedPositions()
        let strip = { (s: String) in s.replacingOccurrences(of: self.directory.path, with: "") }
        for c in saved.checkpoints { print("        cp \(strip(c.path)) \(c.fingerprint) @\(c.offset)\(c.drained ? " drained" : "")") }
        for (path, seen) in saved.seen.sorted(by: { $0.key < $1.key }) {
            print("        seen \(strip(path)): \(seen.map { "\($0.fingerprint)\($0.readTo.map { "@\($0)" } ?? "")" }.joined(separator: " "))")
        }
        for folder in ["logs", "logs/old"] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/" + folder)) ?? []).sorted()
            let listed = names.compactMap { name -> String? in
                let path = directory.path + "/" + folder + "/" + name
                guard let st = Syscall.stat(path), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
                return "\(name)[\(st.st_size) i\(st.st_ino % 10000) \(Fingerprinter.ofFile(path).map { "\($0)" } ?? "-")]"
            }
            print("        \(folder): \(listed.joined(separator: " "))")
        }
    }

    /// Invariants after every turn.
    private func check(_ run: Tailer<ManualClock>) {
        if run.tracked.openCount > run.settings.maxOpenFiles {
            problems.append("step \(stepIndex): \(run.tracked.openCount) files open, more than maxOpenFiles \(run.settings.maxOpenFiles)")
        }
    }
}
