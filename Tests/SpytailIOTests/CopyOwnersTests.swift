import Glibc
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// Which live file a rotated copy belongs to, by names in a real folder tree (nothing is opened).
struct CopyOwnersTests {
    func tree() -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        mkdir(dir.file("old"), 0o755)
        for name in ["app.log", "app.log.1", "app.log.2.gz", "old/app.log.3.gz", "db.log", "db.log-20261118.gz",
                     "notes.txt", "stray.log.1"] {
            dir.write(name, "x\n")
        }
        return dir
    }

    func owners(_ dir: TemporaryDirectory, followed: [String] = []) -> CopyOwners {
        var source = SpytailConfig.Source(name: "s", include: ["*.log"])
        source.rotated = true
        source.olddir = "old"
        return CopyOwners(discovery: PathDiscovery(baseDirectory: dir.path), sources: [source], followed: { followed })
    }

    @Test func aCopyBelongsToTheLiveFileItNamesInItsFolderOrOneUpForTheOlddir() {
        let dir = tree()
        defer { dir.remove() }
        let owners = owners(dir)
        #expect(owners.liveFile(ofCopy: dir.file("app.log.2.gz"))?.live == dir.file("app.log"))
        #expect(owners.liveFile(ofCopy: dir.file("old/app.log.3.gz"))?.live == dir.file("app.log"))
        #expect(owners.liveFile(ofCopy: dir.file("db.log-20261118.gz"))?.live == dir.file("db.log"))
        #expect(owners.liveFile(ofCopy: dir.file("notes.txt")) == nil)  // no rotated name
        #expect(owners.liveFile(ofCopy: dir.file("app.log")) == nil)  // a live file is nobody's copy
    }

    @Test func chainsAreGroupedByLiveFileOldestFirstFromOneListingAFolder() {
        let dir = tree()
        defer { dir.remove() }
        let owners = owners(dir)
        let folders = owners.chainFolders(near: [dir.path])
        #expect(folders == [dir.path, dir.file("old")])
        let chains = owners.chains(in: folders)
        #expect(chains.map(\.live) == [dir.file("app.log"), dir.file("db.log"), dir.file("stray.log")])
        #expect(chains[0].chain == ["old/app.log.3.gz", "app.log.2.gz", "app.log.1"].map(dir.file))
        #expect(chains[1].chain == [dir.file("db.log-20261118.gz")])
    }

    /// With a `rotatedPattern`, copies need not hold the live name: the live files followed now are asked,
    /// and only then.
    @Test func aRotatedPatternAsksTheFollowedFilesOnlyWhenThereIsOne() {
        let dir = tree()
        defer { dir.remove() }
        var asked = 0
        var patterned = SpytailConfig.Source(name: "p", include: ["*.log"])
        patterned.rotated = true
        patterned.rotatedPattern = #"archive-(?<index>\d+)"#
        dir.write("archive-1.gz", "x\n")
        let owners = CopyOwners(discovery: PathDiscovery(baseDirectory: dir.path), sources: [patterned],
                                followed: { asked += 1; return [dir.file("app.log")] })
        #expect(owners.liveFile(ofCopy: dir.file("archive-1.gz"))?.live == dir.file("app.log"))
        #expect(asked == 1)
        var named = SpytailConfig.Source(name: "s", include: ["*.log"])
        named.rotated = true
        let plain = CopyOwners(discovery: PathDiscovery(baseDirectory: dir.path), sources: [named],
                               followed: { asked += 1; return [] })
        #expect(plain.liveFile(ofCopy: dir.file("archive-1.gz")) == nil)
        #expect(asked == 1)
    }
}
