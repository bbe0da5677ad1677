import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport
import Glibc

/// Discovery on a real folder tree: globs, `**`, excludes, rotated chains oldest first.
struct PathDiscoveryTests {
    func makeTree() -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for name in ["app.log", "app.log.1", "app.log.2.gz", "app.log.10.gz", "app.log.3.gz", "app.log.tmp", "other.log",
                     "other.log-20261118.gz", "other.log-20261119", ".hidden.log"] {
            dir.write(name, "x\n")
        }
        mkdir(dir.file("svc"), 0o755)
        mkdir(dir.file("svc/deep"), 0o755)
        dir.write("svc/a.log", "x\n")
        dir.write("svc/deep/b.log", "x\n")
        return dir
    }

    func relative(_ paths: [String], _ dir: TemporaryDirectory) -> [String] {
        paths.map { String($0.dropFirst(dir.path.count + 1)) }
    }

    @Test func rotatedSourcesReadTheChainOldestFirst() {
        let dir = makeTree()
        defer { dir.remove() }
        var source = SpytailConfig.Source(name: "s", include: ["*.log"])
        source.exclude = ["*.tmp"]
        let files = PathDiscovery(baseDirectory: dir.path).files(for: source)
        #expect(relative(files, dir) == ["app.log.10.gz", "app.log.3.gz", "app.log.2.gz", "app.log.1", "app.log",
                                         "other.log-20261118.gz", "other.log-20261119", "other.log"])
    }

    /// Every built-in form of a rotated name is found in a folder shared with many other live files and their
    /// copies (which are passed over by name: only names starting with the live name's stem are parsed); the
    /// same through folder listings shared by a pass over every live file (start-up's), each chain its own.
    @Test(arguments: [false, true]) func aChainHoldsEveryBuiltInFormAndNothingOfItsNeighbours(sharedListings: Bool) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for i in 0..<50 { dir.write("svc\(i).log", "x\n"); dir.write("svc\(i).log.1", "x\n") }
        for name in ["web.log", "web.log.1", "web.2.log", "web-20261120.log", "web.log-20261119.gz", "webby.log", "webby.log.3"] {
            dir.write(name, "x\n")
        }
        let source = SpytailConfig.Source(name: "s", include: ["*.log"])
        let discovery = PathDiscovery(baseDirectory: dir.path)
        let listings = sharedListings ? FolderListings() : nil
        let neighbours = (0..<50).map { discovery.rotatedChain(of: dir.file("svc\($0).log"), source: source, listings: listings) }
        let chain = discovery.rotatedChain(of: dir.file("web.log"), source: source, listings: listings)
        #expect(relative(chain, dir) == ["web.log-20261119.gz", "web-20261120.log", "web.2.log", "web.log.1"])
        #expect(neighbours.enumerated().allSatisfy { relative($0.element, dir) == ["svc\($0.offset).log.1"] })
    }

    @Test func notRotatedMeansTheMatchesOnly() {
        let dir = makeTree()
        defer { dir.remove() }
        var source = SpytailConfig.Source(name: "s", include: [dir.file("*.log")])
        source.rotated = false
        #expect(relative(PathDiscovery(baseDirectory: "/nowhere").files(for: source), dir) == ["app.log", "other.log"])
    }

    @Test func excludesApplyToChainMembersToo() {
        let dir = makeTree()
        defer { dir.remove() }
        var source = SpytailConfig.Source(name: "s", include: ["app.log"])
        source.exclude = ["*.gz"]
        #expect(relative(PathDiscovery(baseDirectory: dir.path).files(for: source), dir) == ["app.log.1", "app.log"])
    }

    @Test func doubleStarMatchesAnyDepth() {
        let dir = makeTree()
        defer { dir.remove() }
        var source = SpytailConfig.Source(name: "s", include: ["svc/**/*.log"])
        source.rotated = false
        #expect(relative(PathDiscovery(baseDirectory: dir.path).files(for: source), dir) == ["svc/a.log", "svc/deep/b.log"])
    }

    @Test func explicitPathsKeepTheirOrderButChainsGoOldestFirst() {
        let given = ["/l/app.log", "/l/app.log.1", "/l/app.log.10.gz", "/l/app.log.2.gz", "/x/other.log", "/l/zzz.log"]
        #expect(PathDiscovery.orderExplicit(given) == ["/l/app.log.10.gz", "/l/app.log.2.gz", "/l/app.log.1", "/l/app.log",
                                                       "/x/other.log", "/l/zzz.log"])
    }
}

struct SymlinkPolicyTests {
    @Test func symlinksOutOfTheSourceFolderAreRefusedUnlessAllowed() throws {
        let dir = TemporaryDirectory(), outside = TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        dir.write("real.log", "x\n")
        outside.write("secret.log", "s\n")
        symlink(dir.file("real.log"), dir.file("inside.log"))
        symlink(outside.file("secret.log"), dir.file("escape.log"))
        var source = SpytailConfig.Source(name: "s", include: ["*.log"])
        source.rotated = false
        var refused: [String] = []
        let files = PathDiscovery(baseDirectory: dir.path).files(for: source) { path, _ in refused.append(path) }
        #expect(files.map { Paths.baseName(of: $0) } == ["inside.log", "real.log"])
        #expect(refused.map { Paths.baseName(of: $0) } == ["escape.log"])
        source.followSymlinks = true
        #expect(PathDiscovery(baseDirectory: dir.path).files(for: source).count == 3)
    }
}
