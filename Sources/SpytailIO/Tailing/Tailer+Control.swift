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
            for (path, checkpoints) in tracked.unparkAll() { try resumeWhenDescriptorsAllow(path, from: checkpoints) }
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
    /// A config that does not check out is refused and the running one stays. `ConfigReload` decides; this
    /// reads, builds, asks and carries out.
    func reloadConfig() throws(SinkError) {
        configStamp = FileStamp(configFile.path)  // before reading: a save during the read is seen next time
        var reload = ConfigReload(keepsCheckpoints: checkpointer.store != nil)
        var newFile: ConfigFile?
        var made: RunConfiguration?
        var action: ConfigReload.Action
        do {
            let file = try ConfigFile(path: configFile.path)
            newFile = file
            action = reload.next(.read(changed: file.config != configFile.config))
        } catch {
            action = reload.next(.readFailed(error.description))
        }
        while true {
            switch action {
            case .build:
                do {
                    made = try RunConfiguration(newFile!, remote: remote)
                    action = reload.next(.built)
                } catch {
                    action = reload.next(.buildFailed("\(configFile.path): \(error)"))
                }
            case .ask:
                action = reload.next(.answered(refusal: onReload?(newFile!)))
            case .reject(let why):
                return events.report(.configRejected(why))
            case .discardBuilt(let why):
                made!.stopDeliveries()
                return events.report(.configRejected(why))
            case .sayUnchanged:
                return events.report(.configUnchanged(path: newFile!.path))
            case .apply(let steps):
                for step in steps { try carryOut(step, taking: newFile!, made!) }
                return
            }
        }
    }

    /// One step of taking `newFile`, whose run configuration is `made` (the machine asks for these only once both exist).
    private func carryOut(_ step: ConfigReload.Step, taking newFile: ConfigFile, _ made: RunConfiguration) throws(SinkError) {
        switch step {
        case .rebindOpenFiles:
            for file in tracked.open {
                let index = made.sourceIndex(ofLive: file.followPath)
                try file.rebind(source: index, parser: made.parser(forSource: index), emit)
            }
        case .releaseStalledDeliveries:
            for delivery in configuration.deliveries { delivery.takeEverything() }
        case .flushPipeline:
            try pipeline.flush()
            retirePipelineCounts()
        case .startNewDeliveries:
            made.startDeliveries(after: configuration, notify: deliveryNotice)
        case .keepOldPipelineUntilSynced:
            replacedPipelines.append(pipeline)
        case .swapConfiguration:
            let previous = settings
            configuration = made
            reportOpenFileLimit(previous: previous)
            attachTap()
            events.report(.configReloaded(path: newFile.path))
        case .closeFilesNoLongerMatched:
            for file in tracked.open where file.lifecycle.isFollowed && !isLive(file.followPath) {
                try close(file, reason: "no longer matched by the config")
            }
            tracked.keep(where: isLive)
        case .rewatch:
            rewatch()
        case .enterConfiguredState:
            try enter(newFile.config.state)
        case .reconcileEverything:
            try reconcileEverything()
        }
    }
}
