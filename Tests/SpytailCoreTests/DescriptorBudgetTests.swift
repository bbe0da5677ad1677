import Testing
@testable import SpytailCore

/// Which files give their descriptor back at `tail.maxOpenFiles`: drained ones first, then the followed
/// ones quiet the longest, a tenth of the limit more than needed.
struct DescriptorBudgetTests {
    typealias File = DescriptorBudget.OpenFile<String>

    func followed(_ name: String, _ seconds: Int) -> File { File(key: name, isFollowed: true, lastGrowth: .seconds(seconds)) }
    func drained(_ name: String, _ seconds: Int) -> File { File(key: name, isFollowed: false, lastGrowth: .seconds(seconds)) }

    /// `tail.maxOpenFiles` fitted under the process's descriptor limit, an eighth of it (at least 64) kept for the
    /// outputs, the checkpoint file, inotify and connections; at least one file.
    @Test func theFileLimitFitsUnderTheProcessLimit() {
        #expect(DescriptorBudget.fileLimit(configured: 1024, processLimit: 1024) == 896)
        #expect(DescriptorBudget.fileLimit(configured: 1024, processLimit: 1_048_576) == 1024)
        #expect(DescriptorBudget.fileLimit(configured: 32, processLimit: 1024) == 32)
        #expect(DescriptorBudget.fileLimit(configured: 1024, processLimit: 80) == 16)
        #expect(DescriptorBudget.fileLimit(configured: 1024, processLimit: 64) == 1)
        #expect(DescriptorBudget.fileLimit(configured: 1024, processLimit: 3) == 1)
        #expect(DescriptorBudget.fileLimit(configured: 8, processLimit: Int(Int32.max)) == 8)
    }

    @Test func underTheLimitNothingIsReleased() {
        let open = (0..<9).map { followed("f\($0)", $0) }
        #expect(DescriptorBudget.releases(open, limit: 10).isEmpty)
    }

    @Test func drainedFilesGoFirstThenTheQuietestFollowedOnes() {
        // 10 open at a limit of 10: 1 to make room, plus 10 / 10 = 1 to spare.
        let open = [followed("busy", 90), drained("old-copy", 50), followed("quiet", 5), followed("a", 60), followed("b", 70),
                    followed("c", 80), followed("d", 85), followed("e", 86), drained("new-copy", 95), followed("g", 88)]
        #expect(DescriptorBudget.releases(open, limit: 10) == [.retire("old-copy"), .retire("new-copy")])
        let followedOnly = open.filter(\.isFollowed) + [followed("h", 99), followed("i", 100)]
        #expect(DescriptorBudget.releases(followedOnly, limit: 10) == [.park("quiet"), .park("a")])
    }

    @Test func aTenthOfTheLimitIsReleasedBeyondWhatIsNeeded() {
        let open = (0..<100).map { followed("f\($0)", $0) }
        let released = DescriptorBudget.releases(open, limit: 100)
        #expect(released.count == 11)
        #expect(released.first == .park("f0") && released.last == .park("f10"))
        #expect(DescriptorBudget.releases([followed("only", 1)], limit: 1) == [.park("only")])
    }
}
