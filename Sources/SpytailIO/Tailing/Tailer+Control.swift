import Glibc
import SpytailCore

/// Watches, states and hot reload.
extension Tailer {
    /// Watches the config's folder and, unless disabled, the folders every source needs (new ones added,
    /// old ones dropped).
    func rewatch() {
        var wanted: Set<String> = [Paths.parent(of: configFile.path)]
        if state != .disabled { wanted.formUnion(configuration.sources.flatMap(discovery.watchDirectories)) }
        watches.want(wanted)
    }

    /// SIGUSR1: recording ⇄ idle.
    func toggleRecording() throws(SinkError) {
        switch state {
        case .recording: try enter(.idle)
        case .idle: try enter(.recording)
        case .disabled: report(.toggleIgnoredWhileDisabled)
        }
    }

    /// Moves to `newState`. Leaving idle reports what was skipped as one gap per file; disabling parks every
    /// file and drops every watch; enabling watches again and resumes the parked files.
    func enter(_ newState: SpyState) throws(SinkError) {
        guard newState != state else { return }
        let old = state
        if old == .disabled {
            state = newState
            rewatch()
            for (path, checkpoint) in positions.unparkAll() { try resume(path, from: [checkpoint]) }
            try reconcileEverything()
        }
        // An entry the multiline assembler still holds was read under the old state: it goes out (recording) or
        // into the gap (idle) before the state changes, not whenever the idle timeout hands it out.
        if old != newState && (old == .idle || newState == .idle) {
            for file in files.values { try file.flushPendingEntry(emit) }
        }
        for file in files.values {
            if newState == .idle { file.skippedFrom = file.resumeOffset }
            if old == .idle && newState != .idle, let from = file.skippedFrom, let source = file.source, file.resumeOffset > from {
                try reportGap(GapReport(file: source, offset: from, bytes: file.resumeOffset - from, reason: .idle))
            }
            if old == .idle { file.skippedFrom = nil }
        }
        state = newState
        if newState == .disabled {
            for file in Array(files.values) {
                if let checkpoint = file.checkpoint() { positions.park(checkpoint, at: file.followPath) }
                releaseDrainWatch(of: file)
                file.close()
            }
            files = [:]
            byPath = [:]
            rewatch()
        }
        events.report(.stateChanged(newState))
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
        for file in files.values {
            let index = made.sourceIndex(ofLive: file.followPath)
            try file.rebind(source: index, parser: made.parser(forSource: index), emit)
        }
        for delivery in configuration.deliveries { delivery.takeEverything() }  // a stalled one must not hold the reload
        try pipeline.flush()
        retirePipelineCounts()
        made.startDeliveries(after: configuration, notify: deliveryNotice)
        configuration = made
        attachTap()
        events.report(.configReloaded(path: newFile.path))
        for file in Array(files.values) where file.lifecycle.isFollowed && !isLive(file.followPath) {
            try close(file, reason: "no longer matched by the config")
        }
        positions.keep(where: isLive)
        rewatch()
        try enter(newFile.config.state)
        if state != .disabled { try reconcileEverything() }
    }
}
