import Foundation
import Glibc
import SpytailTestSupport

/// Runs the built `spytail` binary (next to the test bundle, or $SPYTAIL_BIN) and other real programs.
enum Harness {
    /// Whether the binary under test was built with a sanitizer (its memory figures then mean little:
    /// ASan keeps freed memory in quarantine, TSan shadows every byte).
    static let binaryIsSanitized: Bool = {
        guard let data = FileManager.default.contents(atPath: binary) else { return false }
        return data.range(of: Data("__asan_init".utf8)) != nil || data.range(of: Data("__tsan_init".utf8)) != nil
    }()

    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stdoutLines: [String] { TextLines.of(stdout) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Real logs of six systems (loghub samples; source and licence in its README).
    static let corpora = packageRoot.appendingPathComponent("Tests/Fixtures/loghub")

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["SPYTAIL_BIN"] { return path }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On Linux the test bundle is a plain executable in the build folder; on other layouts walk up.
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("spytail").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("spytail").path
    }

    /// Runs `executable` with `arguments` and waits. stdout is read from a pipe until the child closes it;
    /// stderr goes to a file, so a chatty stderr can never block the child.
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, cwd: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let errPath = NSTemporaryDirectory() + "spytail-stderr-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        // Pipes no other child inherits (`RunTools.privatePipe`): a copy of either end in a process another test
        // spawns meanwhile would hold back the EOF this waits for, or the one the child waits for on its stdin.
        let out = try RunTools.privatePipe(), input = try RunTools.privatePipe()
        process.standardOutput = out.writing
        process.standardError = errHandle
        process.standardInput = input.reading
        try process.run()
        try out.writing.close()
        try input.reading.close()
        if let stdin { input.writing.write(stdin) }
        try input.writing.close()
        let outData = out.reading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        let errData = try Data(contentsOf: URL(fileURLWithPath: errPath))
        return Result(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    static func spytail(_ arguments: [String], stdin: Data? = nil, cwd: String? = nil) throws -> Result {
        try run(binary, arguments, stdin: stdin, cwd: cwd)
    }

    /// Parses each line as a JSON object.
    static func records(_ result: Result) throws -> [[String: Any]] {
        try result.stdoutLines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw HarnessError.notAnObject(line)
            }
            return object
        }
    }

    enum HarnessError: Error { case notAnObject(String) }
}

/// The reading end of a child's stdout, read with deadlines (a plain read could block a test forever).
final class PipeReader {
    let pipe = Pipe()
    private(set) var data = Data()
    private var newlines = 0

    /// Reads until `condition` holds (given what was read so far), EOF, or `seconds` pass.
    @discardableResult
    func read(for seconds: Double = 20, until condition: (PipeReader) -> Bool) -> Bool {
        let fd = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !condition(self) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) >= 0 else { return false }
            if poller.revents == 0 { continue }
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count <= 0 { return condition(self) }  // EOF
            data.append(contentsOf: chunk[..<count])
            newlines += chunk[..<count].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return true
    }

    /// Lines read so far (counted as they arrive).
    var lineCount: Int { newlines }
}
