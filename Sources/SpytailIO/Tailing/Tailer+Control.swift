import Glibc
import SpytailCore

/// Watches, states and hot reload.
extension Tailer {
    /// Watches the config's folder and, unless disabled, the folders every source needs (new ones added,
    /// old ones dropped).
    func rewatch() {
        var wanted: Set<String> = [Paths.parent(of: configFile.path)]
        var links: [String: Set<String>] = [:]
        if state != .disabled {
            wanted.formUnion(configuration.sources.flatMap(discovery.watchDirectories))
            for source in configuration.sources { links.merge(discovery.linkedFolders(for: source)) { $0.union($1) } }
        }
        watches.want(wanted, links: links)
    }

    /// SIGUSR1: recording ⇄ idle.
    func toggleRecording() throws(SinkError) {
        guard let next = StateChange.toggled(state) else { return report(.toggleIgnoredWhileDisabled) }
        try enter(next)
    }

    /// Moves to `newState`, carrying out `StateChange`'s steps.
    func enter(_ newState: SpyState) throws(SinkError) {
        let steps = StateChange.steps(from: state, to: newState)
        guard !steps.isEmpty else { return }
        for step in steps { try carryOut(step, to: newState) }
        state = newState
        events.report(.stateChanged(newState))
    }

    /// One step; `wakeUp` and `sleep` take the new state themselves (what follows them runs under it).
    private func carryOut(_ step: StateChange.Step, to newState: SpyState) throws(SinkError) {
        switch step {
        case .wakeUp:
            state = newState
            rewatch()
            for (path, checkpoints) in tracked.unparkAll() { try resume(path, from: checkpoints) }
            try reconcileEverything()
        case .flushPendingEntries:
            for file in tracked.open { try file.flushPendingEntry(emit) }
        case .startSkipping:
            for file in tracked.open { file.skippedFrom = file.resumeOffset }
        case .reportSkipped:
            for file in tracked.open {
                if let from = file.skippedFrom, let source = file.source, file.resumeOffset > from {
                    try reportGap(GapReport(file: source, offset: from, bytes: file.resumeOffset - from, reason: .idle))
                }
                file.skippedFrom = nil
            }
        case .sleep:
            state = newState
            for file in tracked.parkEveryOpenFile() {
                releaseDrainWatch(of: file)
                file.close()
            }
            rewatch()
        }
    }

    /// SIGHUP or an edit of the config file: the new config applies from the next line, positions kept.
    /// A config that does not check out is refused and the running one stays.
    func reloadConfig() throws(SinkError) {
        configStamp = FileStamp(configFile.path)  // before reading: a save during the read is seen next time
        let newFile: ConfigFile
        do {
            newFile = try ConfigFile(path: configFile.path)
        } catch {
            events.report(.configRejected(error.description))
            return
        }
        guard newFile.config != configFile.config else {
            events.report(.configUnchanged(path: newFile.path))
            return
        }
        let made: RunConfiguration
        do {
            made = try RunConfiguration(newFile, remote: remote)
        } catch {
            events.report(.configRejected("\(configFile.path): \(error)"))
            return
        }
        if let refusal = onReload?(newFile) {
            made.stopDeliveries()
            events.report(.configRejected(refusal))
            return
        }
        // Files whose source or parser changed hand out what they assembled under the old rules.
        for file in tracked.open {
            let index = made.sourceIndex(ofLive: file.followPath)
            try file.rebind(source: index, parser: made.parser(forSource: index), emit)
        }
        for delivery in configuration.deliveries { delivery.takeEverything() }  // a stalled one must not hold the reload
        try pipeline.flush()
        retirePipelineCounts()
        made.startDeliveries(after: configuration, notify: deliveryNotice)
        // Its files are synced before the next durable save (without checkpoints there is none: let go now).
        if checkpointer.store != nil { replacedPipelines.append(pipeline) }
        let previous = settings
        configuration = made
        reportOpenFileLimit(previous: previous)
        attachTap()
        events.report(.configReloaded(path: newFile.path))
        for file in tracked.open where file.lifecycle.isFollowed && !isLive(file.followPath) {
            try close(file, reason: "no longer matched by the config")
        }
        tracked.keep(where: isLive)
        rewatch()
        try enter(newFile.config.state)
        try reconcileEverything()
    }
}
