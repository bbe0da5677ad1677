/// A reload of the config (SIGHUP, an edit of its file) as a machine: the tailer reads the file, builds a run
/// configuration of it and asks its observers, feeding each outcome in as an event; the machine answers with
/// what to do next, and once the new config is taken, with the steps that swap it in, in order. The decisions
/// `Tailer.reloadConfig` used to make inline; the driver only carries them out.
public struct ConfigReload: Sendable {
    public enum State: Sendable, Equatable {
        /// Waiting for the file to be read and checked.
        case reading
        /// Waiting for the run configuration (its outputs opened) to be built.
        case building
        /// Waiting for the observers' answer.
        case asking
        /// Decided: nothing more comes in.
        case done
    }

    public enum Event: Sendable, Equatable {
        /// The file was read and checked; `changed`: it differs from the running config.
        case read(changed: Bool)
        /// The file could not be read, or does not check out: why.
        case readFailed(String)
        case built
        /// An output of the new config could not be opened (or the like): why.
        case buildFailed(String)
        /// The observers' answer (the HTTP face refuses a config it cannot serve): nil to go ahead.
        case answered(refusal: String?)
    }

    public enum Action: Sendable, Equatable {
        /// Build the run configuration of the file read.
        case build
        /// Ask the observers.
        case ask
        /// Keep the running config and say why (`configRejected`).
        case reject(String)
        /// Keep the running config: stop the deliveries the built one started, and say why.
        case discardBuilt(String)
        /// Keep the running config: the file says what it already says (`configUnchanged`).
        case sayUnchanged
        /// Take the new config: these steps, in order.
        case apply([Step])
    }

    public enum Step: Sendable, Equatable {
        /// Files whose source or parser changed hand out what they assembled under the old rules.
        case rebindOpenFiles
        /// Outputs paused behind a full or slow destination take everything: a stall must not hold the reload.
        case releaseStalledDeliveries
        /// What the old pipeline holds goes out, its counts are kept.
        case flushPipeline
        /// The new config's network deliveries start after the old ones (their records stay in order).
        case startNewDeliveries
        /// The old pipeline's files are synced before the next durable save (with checkpoints only: without, they
        /// are let go at once).
        case keepOldPipelineUntilSynced
        /// The new config runs from here: its settings (the open-file limit said again if it changed), its
        /// pipeline, the viewers' tap; said as `configReloaded`.
        case swapConfiguration
        /// Followed files the new config no longer matches are closed; positions of paths it no longer
        /// matches are dropped.
        case closeFilesNoLongerMatched
        /// The folders the new config needs are watched (and the ones it does not, no longer).
        case rewatch
        /// The state the new config names (recording, idle, disabled), with `StateChange`'s steps.
        case enterConfiguredState
        /// Every path is looked at under the new config (new sources, new patterns).
        case reconcileEverything
    }

    public private(set) var state = State.reading
    private let keepsCheckpoints: Bool

    /// `keepsCheckpoints`: the run saves checkpoints (a replaced pipeline must then be synced before the next save).
    public init(keepsCheckpoints: Bool) {
        self.keepsCheckpoints = keepsCheckpoints
    }

    /// What to do after `event`. An event the current state does not wait for is a driver's mistake.
    public mutating func next(_ event: Event) -> Action {
        switch (state, event) {
        case (.reading, .readFailed(let why)):
            state = .done
            return .reject(why)
        case (.reading, .read(changed: false)):
            state = .done
            return .sayUnchanged
        case (.reading, .read(changed: true)):
            state = .building
            return .build
        case (.building, .buildFailed(let why)):
            state = .done
            return .reject(why)
        case (.building, .built):
            state = .asking
            return .ask
        case (.asking, .answered(refusal: let refusal?)):
            state = .done
            return .discardBuilt(refusal)
        case (.asking, .answered(refusal: nil)):
            state = .done
            return .apply(steps)
        default:
            preconditionFailure("ConfigReload: \(event) in state \(state)")
        }
    }

    /// The steps that take a new config, in order.
    private var steps: [Step] {
        [.rebindOpenFiles, .releaseStalledDeliveries, .flushPipeline, .startNewDeliveries]
            + (keepsCheckpoints ? [.keepOldPipelineUntilSynced] : [])
            + [.swapConfiguration, .closeFilesNoLongerMatched, .rewatch, .enterConfiguredState, .reconcileEverything]
    }
}
