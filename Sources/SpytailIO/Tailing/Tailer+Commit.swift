import SpytailCore

/// Full outputs and checkpoints: the run's condition decides, the checkpointer saves.
extension Tailer {
    /// An output is full: reading pauses (nothing more is taken in), no checkpoint moves, and the
    /// outputs are retried every `stallRetry`; the bytes already formatted wait in the sinks.
    func stall(_ error: SinkError) {
        if condition.outputFull(at: uptime) {
            report(.outputFull(destination: error.destination, retrySeconds: settings.stallRetry.components.seconds))
            publishStall(error.destination)
        }
    }

    /// Retries a full output; once everything is out, reading resumes where it stopped.
    func retryStalledOutputs() throws(SinkError) {
        guard condition.isStalled, condition.retryDue(at: uptime, settings: settings) || !pipeline.isStalled else { return }
        do {
            try pipeline.flush()
        } catch where error.cause == .noSpace {
            _ = condition.outputFull(at: uptime)
            return
        }
        endStall()
        try reconcileEverything()
    }

    /// Every output took its bytes: says how long reading was paused.
    func endStall() {
        if let paused = condition.outputsWritable(at: uptime) {
            report(.outputsWritable(afterSeconds: paused.components.seconds))
            publishStall(nil)
        }
    }

    /// Outputs first, then checkpoints: a checkpoint never runs ahead of the data.
    func commit(durable: Bool) throws(SinkError) {
        guard condition.mayCheckpoint else { return }  // nothing is saved while an output holds bytes back
        try pipeline.flush()
        switch checkpointer.save(currentCheckpoints(), now: uptime, durable: durable, settings: settings) {
        case .unchanged: break
        case .saved: if condition.checkpointSaved() { report(.checkpointsSavedAgain) }
        case .failed(let error): if condition.checkpointFailed() { report(.checkpointSaveFailed(error)) }
        }
    }

    func currentCheckpoints() -> [Checkpoint] {
        (files.values.compactMap { $0.checkpoint() } + parked.values + retired.values.map(\.checkpoint)).sorted {
            ($0.path, $0.offset) < ($1.path, $1.offset)
        }
    }

    func shutDown() throws(SinkError) {
        if condition.isStalled {
            do {
                try pipeline.flush()
                _ = condition.outputsWritable(at: uptime)
            } catch where error.cause == .noSpace {
                // The checkpoints stay where the written data ends: these lines are read again next time.
                report(.stillFullAtStop(destination: error.destination))
            }
        }
        try commit(durable: true)
        watcher?.stop(waiting: false)  // the thread ends within 1 s by itself; the caller exits or moves on
    }
}
