import Glibc
import Testing
@testable import SpytailIO
import SpytailTestSupport

/// Which folders `run` watches, holds and polls, against the `FileEvents` spy: no inotify, no files.
struct DirectoryWatchesTests {
    @Test func wantingAddsNewFoldersAndDropsOldOnes() {
        let spy = RecordingFileEvents()
        var watches = DirectoryWatches(watcher: spy)
        watches.want(["/a", "/b"])
        watches.want(["/b", "/c"])
        #expect(spy.currentlyWatched == ["/b", "/c"])
        #expect(spy.unwatchedDirectories == ["/a"])
        #expect(watches.wanted == ["/b", "/c"])
        #expect(!watches.polls)
    }

    @Test func aHeldFolderIsWatchedUntilItsLastHolderLetsGo() {
        let spy = RecordingFileEvents()
        var watches = DirectoryWatches(watcher: spy)
        watches.want(["/logs"])
        watches.hold("/moved")
        watches.hold("/moved")
        watches.hold("/logs")  // wanted already: no second watch
        #expect(spy.watchedDirectories.sorted() == ["/logs", "/moved"])
        watches.release("/moved")
        #expect(spy.currentlyWatched.contains("/moved"))
        watches.release("/moved")
        watches.release("/logs")
        #expect(spy.currentlyWatched == ["/logs"])
        watches.release("/never-held")  // nothing to let go of
        #expect(spy.unwatchedDirectories == ["/moved"])
    }

    /// A reload that no longer wants a folder while a drained file still holds it keeps it watched.
    @Test func aFolderNoLongerWantedStaysWatchedWhileHeld() {
        let spy = RecordingFileEvents()
        var watches = DirectoryWatches(watcher: spy)
        watches.want(["/old", "/config"])
        watches.hold("/old")
        watches.want(["/config"])
        #expect(spy.currentlyWatched == ["/old", "/config"])
        watches.release("/old")
        #expect(spy.currentlyWatched == ["/config"])
        watches.hold("/new")
        watches.want(["/config", "/new"])  // held before it was wanted: one watch, not two
        watches.release("/new")
        #expect(spy.currentlyWatched == ["/config", "/new"])
        #expect(spy.watchedDirectories.filter { $0 == "/new" }.count == 1)
    }

    @Test func aRefusedFolderIsPolledSaidOnceAndTriedAgainWhenItExists() {
        let spy = RecordingFileEvents(watchResult: { $0 != "/full" })
        var watches = DirectoryWatches(watcher: spy)
        watches.want(["/full", "/ok"])
        #expect(watches.failed == ["/full"])
        #expect(watches.polls)
        // The watcher's event for it: said the first time only.
        let said = [watches.refused("/full"), watches.refused("/full")]
        #expect(said == [true, false])
        let whileGone = watches.retryRefused(exists: { _ in false })
        #expect(whileGone == ["/full"] && watches.failed == ["/full"])
        let onceBack = watches.retryRefused(exists: { _ in true })
        #expect(onceBack == ["/full"] && watches.failed.isEmpty)
        #expect(spy.watchedDirectories.filter { $0 == "/full" }.count == 2)
        #expect(!watches.polls)
    }

    @Test func pollsComeEveryIntervalOnlyWhileSomethingIsPolled() {
        let interval = Duration.seconds(2)
        var watched = DirectoryWatches(watcher: RecordingFileEvents())
        #expect(watched.nextPoll(every: interval) == nil)
        let watchedDue = watched.pollDue(at: .seconds(10), every: interval)
        #expect(!watchedDue)

        var unwatched = DirectoryWatches(watcher: nil)  // no inotify: everything is polled
        #expect(unwatched.nextPoll(every: interval) == .seconds(2))
        let due = [1, 2, 3, 5].map { unwatched.pollDue(at: .seconds($0), every: interval) }
        #expect(due == [false, true, false, true])
        #expect(unwatched.nextPoll(every: interval) == .seconds(7))
    }
}
