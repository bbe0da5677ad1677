import Glibc
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// `explore --follow` on real files: new lines join the index (a partial line when complete, a multiline entry
/// after its idle timeout), a rotation by rename loses nothing and the old entries stay readable in the copy,
/// `copytruncate` reads the rest from the copy and says what may be lost, and a search sees the new entries.
struct HistoryFollowerTests {
    static let config = #"""
        {"parse": {"pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$", "multiline": {"continuation": "^\\s", "idleTimeoutMs": 500}}}
        """#

    struct Followed {
        let explorer: Explorer
        let follower: HistoryFollower
        var now = ContinuousClock.now

        /// One look at the files, `after` later than the last.
        mutating func poll(after: Duration = .milliseconds(10)) {
            now = now.advanced(by: after)
            explorer.follow(follower, now: now)
        }

        func messages(_ query: ExploreQuery = ExploreQuery()) throws -> [String] {
            try explorer.page(query, after: nil, limit: 100).records.map { record in
                let text = String(decoding: record, as: UTF8.self)
                guard let start = text.range(of: #""message":""#), let end = text[start.upperBound...].firstIndex(of: "\"") else { return "?" }
                return String(text[start.upperBound..<end])
            }
        }
    }

    func follow(_ dir: TemporaryDirectory, _ paths: [String], live: Set<String>) throws -> Followed {
        let compiled = try CompiledConfig(json: Array(Self.config.utf8))
        let indexer = HistoryIndexer(config: compiled, events: RecordingEventReporter())
        let (index, _) = indexer.index(files: paths.map { ($0, SourceFile.unnamed) }, follow: live)
        let follower = try #require(indexer.follower(config: compiled))
        return Followed(explorer: Explorer(index: index, config: compiled, following: follower.paths), follower: follower)
    }

    func append(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_APPEND)
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
        close(fd)
    }

    @Test func newLinesJoinTheIndexWhenComplete() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let old = dir.write("app.log.1", "2026-11-27T09:00:00Z INFO old\n")
        let live = dir.write("app.log", "2026-11-27T10:00:00Z INFO one\n2026-11-27T10:00:01Z ERROR two\n")
        var followed = try follow(dir, [old, live], live: [live])
        #expect(followed.follower.paths == [live])
        #expect(try followed.messages() == ["old", "one"], "two may still get continuation lines")
        followed.poll(after: .milliseconds(600))
        #expect(try followed.messages() == ["old", "one", "two"], "handed out after the idle timeout")
        #expect(try followed.messages(ExploreQuery(text: "three")) == [])
        append(live, "2026-11-27T10:00:02Z INFO three\n2026-11-27T10:00:03Z INFO fo")
        followed.poll()
        #expect(try followed.messages() == ["old", "one", "two"], "three waits for continuation lines, a partial line for its end")
        append(live, "ur\n  at line 2\n")
        followed.poll()
        #expect(try followed.messages() == ["old", "one", "two", "three"], "four waits for more continuation lines")
        followed.poll(after: .milliseconds(600))
        #expect(try followed.messages() == ["old", "one", "two", "three", "four"])
        #expect(try followed.messages(ExploreQuery(text: "three")) == ["three"], "the search's blocks were searched again")
        #expect(try followed.explorer.count(ExploreQuery()) == 5)
    }

    @Test func aRotationByRenameLosesNothingAndOldEntriesStayReadable() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let live = dir.write("app.log", "2026-11-27T10:00:00Z INFO one\n")
        var followed = try follow(dir, [live], live: [live])
        followed.poll(after: .seconds(1))
        // Written after the last look, then renamed away: read from the old file to its end.
        append(live, "2026-11-27T10:00:01Z INFO two\n")
        #expect(rename(live, dir.path + "/app.log.1") == 0)
        _ = dir.write("app.log", "2026-11-27T10:00:02Z INFO three\n")
        followed.poll()
        followed.poll(after: .seconds(1))
        followed.poll(after: .seconds(1))
        #expect(try followed.messages() == ["one", "two", "three"])
        // logrotate compresses the copy: the old entries are read from app.log.1.gz now.
        let copy = dir.read("app.log.1")
        _ = dir.write("app.log.1.gz", Gzip.member(copy))
        #expect(unlink(dir.path + "/app.log.1") == 0)
        #expect(try followed.messages() == ["one", "two", "three"])
    }

    @Test func copytruncateReadsTheRestFromTheCopyAndReportsTheGap() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let live = dir.write("app.log", "2026-11-27T10:00:00Z INFO one\n")
        var followed = try follow(dir, [live], live: [live])
        followed.poll(after: .seconds(1))
        append(live, "2026-11-27T10:00:01Z INFO two\n")
        // logrotate's copytruncate: copy, truncate; then the application writes on.
        _ = dir.write("app.log.1", dir.read("app.log"))
        #expect(truncate(live, 0) == 0)
        append(live, "2026-11-27T10:00:02Z INFO three\n")
        followed.poll()
        followed.poll(after: .seconds(1))
        let messages = try followed.messages()
        #expect(messages.count == 4 && Array(messages[0...1]) == ["one", "two"] && messages[3] == "three")
        #expect(messages[2].hasPrefix("gap: the file was copied and truncated (copytruncate)"))
        // Truncated with no copy: a gap that says the rest may be lost.
        append(live, "2026-11-27T10:00:03Z INFO four\n")
        followed.poll(after: .seconds(1))
        #expect(truncate(live, 0) == 0)
        append(live, "2026-11-27T10:00:04Z INFO five, written after the truncation\n")
        followed.poll()
        followed.poll(after: .seconds(1))
        let after = try followed.messages()
        #expect(!after.contains("four"), "its text went with the truncation")
        #expect(after.last == "five, written after the truncation" && after.contains { $0.hasPrefix("gap: the file was truncated") })
    }
}
