import Testing
@testable import SpytailCore

struct RotationNameTests {
    @Test(arguments: [
        ("app.log.1", RotationName.numbered(1), false),
        ("app.log.11.gz", .numbered(11), true),
        ("app.log-20261120", .dated("20261120"), false),
        ("app.log-2026-11-20.gz", .dated("2026-11-20"), true),
    ])
    func recognises(_ name: String, _ rotation: RotationName, _ gzip: Bool) {
        let parsed = RotationName.parse(live: "app.log", candidate: name)
        #expect(parsed?.rotation == rotation)
        #expect(parsed?.gzipName == gzip)
    }

    @Test(arguments: ["app.log", "app.log.", "app.log.x", "app.log.1.bak", "app.logs.1", "other.log.1", "app.log-abc"])
    func ignores(_ name: String) {
        #expect(RotationName.parse(live: "app.log", candidate: name) == nil)
    }

    @Test func ordersTheChainOldestFirst() {
        let names = ["app.log", "app.log.1", "app.log.10.gz", "app.log.2.gz", "app.log.11.gz", "app.log.3.gz", "other.log.1",
                     "app.log-20261119.gz", "app.log-20261118.gz"]
        #expect(RotationName.chain(live: "app.log", names: names) == [
            "app.log-20261118.gz", "app.log-20261119.gz", "app.log.11.gz", "app.log.10.gz", "app.log.3.gz", "app.log.2.gz",
            "app.log.1",
        ])
    }

    @Test func prefersThePlainCopyWhileCompressionIsUnderWay() {
        #expect(RotationName.chain(live: "app.log", names: ["app.log.2.gz", "app.log.2", "app.log.1"]) == ["app.log.2", "app.log.1"])
        #expect(RotationName.chain(live: "app.log", names: ["app.log.2", "app.log.2.gz"]) == ["app.log.2"])
    }
}
