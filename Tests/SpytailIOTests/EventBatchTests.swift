import Glibc
import Testing
import SpytailCore
@testable import SpytailIO

/// How one batch of the run loop's events is sorted out, before anything is done: no files, no threads.
struct EventBatchTests {
    static let config = "/etc/spytail/spytail.json"

    static func changed(_ directory: String, _ name: String?, _ kind: WatchEvent.Kind) -> RunEvent {
        .watch(.changed(directory: directory, name: name, kind: kind))
    }

    @Test func aStopEndsTheBatchAndWhatCameBeforeItStillCounts() {
        let batch = EventBatch([.signal(SIGUSR1), .signal(SIGTERM), .signal(SIGHUP), .request(.setState(.idle))],
                               configPath: Self.config)
        #expect(batch.stops)
        #expect(batch.controls == [.toggleRecording])
        #expect(!batch.reload)
        #expect(EventBatch([.clockAdvanced, .signal(SIGINT)], configPath: Self.config).stops)
    }

    @Test func controlsKeepTheirOrder() {
        let problem = RunProblem.toggleIgnoredWhileDisabled
        let batch = EventBatch([.request(.setState(.disabled)), .delivery(.acknowledged), .delivery(.problem(problem)),
                                .signal(SIGUSR1), .watch(.watchFailed(directory: "/full", Errno(ENOSPC))),
                                Self.changed("/logs", "sub", .directoryCreated)], configPath: Self.config)
        #expect(batch.controls == [.enter(.disabled), .acknowledged, .report(problem), .toggleRecording,
                                   .watchRefused(directory: "/full", Errno(ENOSPC)), .rewatch])
        #expect(!batch.stops)
    }

    @Test func aReloadIsAskedBySIGHUPTheAPIOrAnEditOfTheConfigFile() {
        for event in [RunEvent.signal(SIGHUP), .request(.reload), Self.changed("/etc/spytail", "spytail.json", .modified),
                      Self.changed("/etc/spytail", "spytail.json", .arrived)] {
            let batch = EventBatch([event], configPath: Self.config)
            #expect(batch.reload)
            #expect(batch.directories.isEmpty && batch.grown.isEmpty && batch.arrived.isEmpty)
        }
        #expect(!EventBatch([Self.changed("/etc/spytail", "other.json", .modified)], configPath: Self.config).reload)
        #expect(!EventBatch([.signal(SIGUSR2), .clockAdvanced], configPath: Self.config).reload)
    }

    @Test func aGrownFileIsLookedAtAloneUnlessItsFolderIsLookedAtAnyway() {
        let batch = EventBatch([Self.changed("/a", "app.log", .modified), Self.changed("/b", "db.log", .modified),
                                Self.changed("/b", "db.log.1", .entries)], configPath: Self.config)
        #expect(batch.grown == ["/a/app.log"])
        #expect(batch.directories == ["/b"])
        #expect(batch.arrived.isEmpty)
    }

    @Test func anArrivalIsAFolderToLookAtAndANameToCatchUp() {
        let batch = EventBatch([Self.changed("/a", "app.log.1", .arrived), Self.changed("/a", nil, .directoryGone)],
                               configPath: Self.config)
        #expect(batch.arrived == ["/a/app.log.1"])
        #expect(batch.directories == ["/a"])
        #expect(batch.controls == [.rewatch])
    }

    @Test func anOverflowLooksAtEverything() {
        let batch = EventBatch([Self.changed("/a", "app.log", .modified), .watch(.overflow)], configPath: Self.config)
        #expect(batch.everything)
    }

    @Test func aNewWatchIsAFolderToLookAtAndOneLookAtTheWatchedSet() {
        let batch = EventBatch([.watch(.watching(directory: "/pods/a")), Self.changed("/pods", "b", .directoryCreated),
                                .watch(.watching(directory: "/pods/a/app"))], configPath: Self.config)
        #expect(batch.directories == ["/pods/a", "/pods", "/pods/a/app"])
        #expect(batch.controls == [.rewatch], "once per batch")
        #expect(batch.watched == ["/pods/a", "/pods/a/app"])
    }
}
