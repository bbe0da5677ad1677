import Testing
@testable import SpytailCore

struct PathPatternTests {
    @Test(arguments: [
        ("/var/log/app/*.log", "/var/log/app", ["*.log"]),
        ("logs/**/*.log", "logs", ["**", "*.log"]),
        ("*.log", ".", ["*.log"]),
        ("/var/log/app.log", "/var/log/app.log", [String]()),
    ])
    func splitsRootAndWildcards(_ text: String, _ root: String, _ components: [String]) {
        let pattern = PathPattern(text)
        #expect(pattern.root == root)
        #expect(pattern.components == components)
    }

    @Test(arguments: [
        ("*.tmp", "/var/log/app/x.tmp", true),
        ("*.tmp", "/var/log/app/x.log", false),
        ("*.gz", "/logs/app.log.2.gz", true),
        ("/var/log/app/debug*", "/var/log/app/debug.log", true),
        ("/var/log/app/debug*", "/var/log/other/debug.log", false),
    ])
    func excludes(_ pattern: String, _ path: String, _ excluded: Bool) {
        #expect(PathPattern(pattern).excludes(path: path) == excluded)
    }

    @Test func wildcardsDoNotMatchHiddenFiles() {
        #expect(!PathPattern.matches(component: "*.log", name: ".hidden.log"))
        #expect(PathPattern.matches(component: "*.log", name: "app.log"))
    }
}
