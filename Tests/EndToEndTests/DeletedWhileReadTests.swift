import Foundation
import Testing
import SpytailTestSupport

/// A file deleted while spytail reads it. spytail is held mid-file by a pipe the test does not read yet,
/// then the file is unlinked: what was open is read to its end (the data lives while a descriptor holds
/// it), a file not opened yet is named as missing, and everything else flows.
@Suite(.ownThread)
struct DeletedWhileReadTests {
    static let lineCount = 200_000

    static func bigLog(_ dir: TemporaryDirectory, _ name: String) -> String {
        let text = (1...lineCount).map { "2026-11-20T10:00:00Z INFO seq=\($0) \(String(repeating: "d", count: 60))\n" }.joined()
        return dir.write(name, text)
    }

    /// Whether process `pid` has `path` open.
    static func holds(_ pid: Int32, _ path: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
    }

    @Test func scanReadsTheOpenFileToItsEndAndNamesTheVanishedOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let first = Self.bigLog(dir, "first.log")
        let second = dir.write("second.log", "never read\n")
        let config = dir.write("c.json", #"{"outputs": [{"type": "stdout", "format": "jsonl"}]}"#)
        let reader = PipeReader()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["scan", "-q", "-c", config, first, second]
        let stderrPath = dir.file("stderr")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = reader.pipe.fileHandleForWriting
        try process.run()
        try reader.pipe.fileHandleForWriting.close()

        // Held by the full pipe with first.log open and most of it unread; then both files go.
        #expect(reader.read { $0.lineCount >= 100 })
        #expect(RunTools.waitUntil(10) { Self.holds(process.processIdentifier, first) })
        #expect(reader.lineCount < Self.lineCount / 2)  // really mid-file
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.removeItem(atPath: second)
        reader.read(for: 300) { _ in false }  // to EOF (an upper bound: ~10 s alone, minutes under a sanitizer beside the other suites)
        // Past the bound nobody drains the pipe: end the process rather than wait for it forever.
        if process.isRunning { process.terminate() }
        process.waitUntilExit()

        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(reader.lineCount == Self.lineCount)
        #expect(String(decoding: reader.data.suffix(200), as: UTF8.self).contains("seq=\(Self.lineCount) "))
        #expect(stderr.contains("\(second): cannot open: No such file or directory"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    }

    @Test func runReadsADeletedFileToItsEndAndFollowsTheNextOne() throws {
        let dir = try RunTools.workspace()
        defer { dir.remove() }
        let log = Self.bigLog(dir, "logs/app.log")
        let config = dir.write("c.json", RunTools.config(output: nil))
        let reader = PipeReader()
        let spytail = try RunningSpytail(config: config, in: dir, stdout: reader.pipe.fileHandleForWriting)
        try reader.pipe.fileHandleForWriting.close()
        defer { if spytail.process.isRunning { spytail.killHard() } }

        #expect(reader.read { $0.lineCount >= 100 })
        #expect(RunTools.waitUntil(10) { DeletedWhileReadTests.holds(spytail.pid, log) })
        #expect(reader.lineCount < Self.lineCount / 2)  // really mid-file
        try FileManager.default.removeItem(atPath: log)
        #expect(reader.read(for: 300) { $0.lineCount >= Self.lineCount }, "\(spytail.stderr)")  // an upper bound, as above
        #expect(RunTools.waitUntil(10) { spytail.stderr.contains("logs/app.log: closed (deleted)") }, "\(spytail.stderr)")

        dir.write("logs/app.log", "2026-11-20T10:00:00Z INFO a new file under the old name\n")
        #expect(reader.read { $0.lineCount >= Self.lineCount + 1 }, "\(spytail.stderr)")

        // Grown and deleted before spytail looks (it is stopped meanwhile): the deletion is noticed with
        // bytes unread, and they are read before the file is closed.
        spytail.signal(SIGSTOP)
        try RunToolsOutput.append(log, "2026-11-20T10:00:00Z INFO last words before the unlink\n")
        try FileManager.default.removeItem(atPath: log)
        spytail.signal(SIGCONT)
        #expect(reader.read { $0.lineCount >= Self.lineCount + 2 }, "\(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        reader.read(for: 10) { _ in false }  // to EOF
        #expect(reader.lineCount == Self.lineCount + 2)
        #expect(String(decoding: reader.data.suffix(300), as: UTF8.self).contains("last words before the unlink"))
        let text = String(decoding: reader.data, as: UTF8.self)
        #expect(text.contains("seq=\(Self.lineCount) "))
        #expect(text.contains("a new file under the old name"))
        #expect(!spytail.stderr.contains("error"), "\(spytail.stderr)")
    }
}
