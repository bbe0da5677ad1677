import SpytailCore

/// Full outputs and checkpoints: the run's condition decides, the checkpointer saves.
extension Tailer {
    /// An output is full: reading pauses (nothing more is taken in), no checkpoint moves, and the
    /// outputs are retried every `stallRetry`; the bytes already formatted wait in the sinks.
    func stall(_ error: SinkError) {
        // A network output says its problems itself, once; a full disk is said here.
        if condition.outputFull(at: uptime, said: error.cause == .noSpace) {
            if condition.saysStall { report(.outputFull(error, retrySeconds: settings.stallRetry.components.seconds)) }
            publishStall(error)
        }
    }

    /// Retries a full output; once everything is out, reading resumes where it stopped.
    /// `now`: a network output acknowledged records (room again), no need to wait for the retry timer.
    func retryStalledOutputs(now: Bool = false) throws(SinkError) {
        guard condition.isStalled, now || condition.retryDue(at: uptime, settings: settings) || !pipeline.isStalled else { return }
        do {
            try pipeline.flush()
        } catch where error.cause.pausesReading {
            _ = condition.outputFull(at: uptime)
            return
        }
        endStall()
        try reconcileEverything()
    }

    /// Every output took its bytes: says how long reading was paused. Whatever was passed over meanwhile is
    /// looked at again (`looksAgainAfterPause`: at once after a retry, at the end of the turn after a wait inside
    /// a step; a file followed during the pause was opened and not read, and no event may come for it again).
    func endStall() {
        if let resumed = condition.outputsWritable(at: uptime) {
            looksAgainAfterPause = true
            if resumed.said { report(.outputsWritable(afterSeconds: resumed.paused.components.seconds)) }
            publishStall(nil)
        }
    }

    /// Outputs first, then checkpoints: a checkpoint never runs ahead of the data.
    func commit(durable: Bool) throws(SinkError) {
        // An output filled up during a read, which stopped there: the run stalls even if the output has room
        // again by now, so that the way out of the stall (everything looked at again) finishes that read. No
        // file event would: the rest may have been written long ago. (Once stalled, only a retry moves the
        // retry clock.)
        if !condition.isStalled, let full = pipeline.stall { stall(full) }
        let outcome: Checkpointer.Outcome
        if condition.mayCheckpoint {
            try pipeline.flush()
            dropSupersededDeletedPositions()
            outcome = checkpointer.save(savedPositions(), ledgers: configuration.ledgers, now: uptime, durable: durable,
                                        settings: settings, syncOutputs: syncOutputs)
        } else if condition.isStalled && condition.checkpoints != .frozen {
            // Nothing new is noted while an output holds bytes back; what was acknowledged before still counts.
            outcome = checkpointer.saveAcknowledged(now: uptime, durable: durable, settings: settings, syncOutputs: syncOutputs)
        } else {
            return
        }
        switch outcome {
        case .unchanged: break
        case .saved: if condition.checkpointSaved() { report(.checkpointsSavedAgain) }
        case .failed(let error): if condition.checkpointFailed() { report(.checkpointSaveFailed(error)) }
        }
    }

    /// Before a durable save: every output's bytes on the disk, those of outputs a reload replaced first (they
    /// are let go once synced).
    func syncOutputs() throws(SinkError) {
        while let replaced = replacedPipelines.first {
            try replaced.sync()
            replacedPipelines.removeFirst()
        }
        try pipeline.sync()
    }

    /// The checkpoints, with the contents seen under every live path whose chain is known (also one with nothing
    /// to checkpoint: an empty live file, or one closed while disabled): a restart reads a copy never seen, and
    /// not one read.
    func savedPositions() -> SavedPositions {
        let checkpoints = currentCheckpoints(), known = seen.saved()
        let named = Set(checkpoints.map(\.fingerprint)).union(known.values.joined().map(\.fingerprint))
        return SavedPositions(checkpoints: checkpoints, seen: known, epochs: marks.saved(keeping: named), endsAtStart: endsAtStart)
    }

    /// What was seen under live paths whose folder is gone (a deleted pod), with nothing kept there, is
    /// forgotten: the checkpoint file does not grow with every container a node ever ran. (Looked at after a
    /// batch that told of a folder coming or going, and once at start for folders gone while stopped.)
    func forgetGoneFolders() {
        let kept = Set(tracked.keptCheckpoints.map(\.path) + tracked.followedPaths)
        for path in seen.chainsNoted where !kept.contains(path) && Syscall.stat(Paths.parent(of: path)) == nil {
            seen.forget(path)
        }
    }

    /// Every file's checkpoint, each with its content's earlier positions (`ContentMarks`).
    func currentCheckpoints() -> [Checkpoint] {
        var checkpoints = tracked.checkpoints.sorted {
            ($0.path, $0.offset) < ($1.path, $1.offset)
        }
        for k in checkpoints.indices { marks.stamp(&checkpoints[k], now: uptime) }
        return checkpoints
    }

    /// A deleted file's position stops counting once the file followed at its path has a checkpoint of its own
    /// (it had none while empty): otherwise a restart would resume the old content and read every rotation
    /// since again.
    private func dropSupersededDeletedPositions() {
        for path in tracked.gonePaths where tracked.file(followedAt: path)?.source != nil { tracked.dropGone(at: path) }
    }

    func shutDown() throws(SinkError) {
        do {
            try pipeline.flush()
            _ = condition.outputsWritable(at: uptime)
        } catch where error.cause.pausesReading {
            // The checkpoints stay where the written data ends: these lines are read again next time.
            _ = condition.outputFull(at: uptime)
            report(.stillFullAtStop(error))
        }
        // Network outputs get their shutdown timeout to have the rest acknowledged; checkpoints follow.
        for delivery in configuration.deliveries {
            let left = delivery.finish()
            if left > 0 { report(.undeliveredAtStop(destination: delivery.name, records: left)) }
        }
        try commit(durable: true)
        watches.watcher?.stop(waiting: false)  // the thread ends within 1 s by itself; the caller exits or moves on
    }
}
