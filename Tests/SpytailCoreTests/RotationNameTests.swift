import Testing
@testable import SpytailCore

struct RotationNameTests {
    @Test(arguments: [
        ("app.log.1", RotationName.numbered(1), false),
        ("app.log.11.gz", .numbered(11), true),
        ("app.log-20261120", .dated([20261120]), false),
        ("app.log-2026-11-20.gz", .dated([2026, 11, 20]), true),
        // logrotate dateformat variants
        ("app.log.20261120", .dated([20261120]), false),
        ("app.log-20261120-1795168800", .dated([20261120, 1795168800]), false),
        ("app.log_2026.11.20", .dated([2026, 11, 20]), false),
        // Python TimedRotatingFileHandler suffixes, with and without a gzip namer
        ("app.log.2026-11-23", .dated([2026, 11, 23]), false),
        ("app.log.2026-11-23_07", .dated([2026, 11, 23, 7]), false),
        ("app.log.2026-11-23_07-48", .dated([2026, 11, 23, 7, 48]), false),
        ("app.log.2026-11-23_07-48-50.gz", .dated([2026, 11, 23, 7, 48, 50]), true),
        // logrotate `extension .log`
        ("app-20261123.log", .dated([20261123]), false),
        ("app-20261122.log.gz", .dated([20261122]), true),
        ("app.2.log.gz", .numbered(2), true),
    ])
    func recognises(_ name: String, _ rotation: RotationName, _ gzip: Bool) {
        let parsed = RotationName.parse(live: "app.log", candidate: name)
        #expect(parsed?.rotation == rotation)
        #expect(parsed?.gzipName == gzip)
        #expect(RotationName.liveName(of: name) == "app.log")
    }

    @Test(arguments: ["app.log", "app.log.gz", "app.log.", "app.log.x", "app.log.1.bak", "app.logs.1", "other.log.1", "app.log-abc",
                      "app-2.log", "app.log-2026", "app-backup.log", "app.log.12345x"])
    func ignores(_ name: String) {
        #expect(RotationName.parse(live: "app.log", candidate: name) == nil)
    }

    @Test(arguments: ["app.log", "server-2026.log", "web-01.log", "app.log.bak", "notes"])
    func liveNamesAreNotCopies(_ name: String) {
        #expect(RotationName.liveName(of: name) == nil)
    }

    @Test func ordersTheChainOldestFirst() {
        let names = ["app.log", "app.log.1", "app.log.10.gz", "app.log.2.gz", "app.log.11.gz", "app.log.3.gz", "other.log.1",
                     "app.log-20261119.gz", "app.log-20261118.gz"]
        #expect(RotationNaming().chain(live: "app.log", paths: names) == [
            "app.log-20261118.gz", "app.log-20261119.gz", "app.log.11.gz", "app.log.10.gz", "app.log.3.gz", "app.log.2.gz",
            "app.log.1",
        ])
    }

    @Test func ordersDatesByTheirNumbersNotTheirText() {
        let names = ["logs/app.log.2026-11-23_10", "old/app.log.2026-11-23_09-59", "logs/app.log.2026-11-23_9", "logs/app.log.2026-11-22.gz"]
        #expect(RotationNaming().chain(live: "app.log", paths: names) == [
            "logs/app.log.2026-11-22.gz", "logs/app.log.2026-11-23_9", "old/app.log.2026-11-23_09-59", "logs/app.log.2026-11-23_10",
        ])
    }

    @Test func prefersThePlainCopyWhileCompressionIsUnderWay() {
        #expect(RotationNaming().chain(live: "app.log", paths: ["app.log.2.gz", "app.log.2", "app.log.1"]) == ["app.log.2", "app.log.1"])
        #expect(RotationNaming().chain(live: "app.log", paths: ["app.log.2", "app.log.2.gz"]) == ["app.log.2"])
    }

    @Test func aPatternOrdersNamesThatChangeTheBase() throws {
        let naming = RotationNaming(pattern: try Regex(#"app\.(?<date>\d{4}-\d\d-\d\d)\.(?<index>\d+)\.log"#))
        let names = ["app.2026-11-23.1.log.gz", "app.2026-11-22.10.log.gz", "app.2026-11-23.0.log.gz", "app.2026-11-22.9.log.gz",
                     "app.log", "other.2026-11-23.0.txt"]
        #expect(naming.chain(live: "app.log", paths: names) == [
            "app.2026-11-22.9.log.gz", "app.2026-11-22.10.log.gz", "app.2026-11-23.0.log.gz", "app.2026-11-23.1.log.gz",
        ])
        #expect(naming.patterned("app.2026-11-23.1.log.x") == nil, "the whole name must match")
    }
}
