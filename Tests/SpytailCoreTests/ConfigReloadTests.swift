import Testing
@testable import SpytailCore

/// A reload's decisions: every way it ends, and the order in which a new config is taken.
struct ConfigReloadTests {
    /// Events fed in turn, the action after the last, and the state it leaves.
    @Test(arguments: [
        ([ConfigReload.Event.readFailed("c.json: tags[2].match.regex: …")], ConfigReload.Action.reject("c.json: tags[2].match.regex: …")),
        ([.read(changed: false)], .sayUnchanged),
        ([.read(changed: true), .buildFailed("c.json: output 1 cannot open")], .reject("c.json: output 1 cannot open")),
        ([.read(changed: true), .built, .answered(refusal: "http.listen changes at the next start")],
         .discardBuilt("http.listen changes at the next start")),
    ])
    func aConfigNotTakenKeepsTheRunningOne(_ events: [ConfigReload.Event], _ last: ConfigReload.Action) {
        var reload = ConfigReload(keepsCheckpoints: true)
        var actions = events.map { reload.next($0) }
        #expect(actions.removeLast() == last)
        #expect(!actions.contains { if case .apply = $0 { true } else { false } })
        #expect(reload.state == .done)
    }

    @Test func aChangedConfigIsBuiltThenAskedForThenTaken() {
        var reload = ConfigReload(keepsCheckpoints: false)
        #expect(reload.next(.read(changed: true)) == .build)
        #expect(reload.state == .building)
        #expect(reload.next(.built) == .ask)
        #expect(reload.state == .asking)
        guard case .apply(let steps) = reload.next(.answered(refusal: nil)) else { Issue.record("not applied"); return }
        #expect(reload.state == .done)
        #expect(steps == [.rebindOpenFiles, .releaseStalledDeliveries, .flushPipeline, .startNewDeliveries, .swapConfiguration,
                          .closeFilesNoLongerMatched, .rewatch, .enterConfiguredState, .reconcileEverything])
    }

    /// With checkpoints, the old pipeline's files are synced before the next durable save: kept after it is
    /// flushed and before the new one takes over.
    @Test func withCheckpointsTheOldPipelineIsKeptUntilSynced() {
        var reload = ConfigReload(keepsCheckpoints: true)
        _ = reload.next(.read(changed: true))
        _ = reload.next(.built)
        guard case .apply(let steps) = reload.next(.answered(refusal: nil)) else { Issue.record("not applied"); return }
        let kept = steps.firstIndex(of: .keepOldPipelineUntilSynced)
        #expect(kept != nil)
        #expect(kept.map { $0 > steps.firstIndex(of: .flushPipeline)! && $0 < steps.firstIndex(of: .swapConfiguration)! } == true)
    }

    /// The order's reasons: the old rules hand out what they assembled before the pipeline is flushed (a stalled
    /// output let go first, or the flush would wait on it); the new deliveries start after the old ones; files are
    /// judged, folders watched and the state entered under the new config; everything is looked at last.
    @Test func aNewConfigIsTakenInAnOrderThatLosesNothing() {
        var reload = ConfigReload(keepsCheckpoints: true)
        _ = reload.next(.read(changed: true))
        _ = reload.next(.built)
        guard case .apply(let steps) = reload.next(.answered(refusal: nil)) else { Issue.record("not applied"); return }
        func at(_ step: ConfigReload.Step) -> Int { steps.firstIndex(of: step)! }
        #expect(at(.rebindOpenFiles) < at(.flushPipeline))
        #expect(at(.releaseStalledDeliveries) < at(.flushPipeline))
        #expect(at(.flushPipeline) < at(.startNewDeliveries))
        #expect(at(.startNewDeliveries) < at(.swapConfiguration))
        for later in [ConfigReload.Step.closeFilesNoLongerMatched, .rewatch, .enterConfiguredState] { #expect(at(.swapConfiguration) < at(later)) }
        #expect(at(.closeFilesNoLongerMatched) < at(.rewatch))
        #expect(steps.last == .reconcileEverything)
        #expect(Set(steps).count == steps.count)
    }
}
