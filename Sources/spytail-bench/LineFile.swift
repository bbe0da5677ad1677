import ArgumentParser
import Glibc

/// The lines of a file, one at a time through `getline` (one buffer reused): the benchmark's own readers.
enum LineFile {
    /// Calls `body` with each line's bytes, its newline included when it has one.
    static func forEachLine(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let file = fopen(path, "r") else { throw ValidationError("cannot open \(path)") }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while true {
            let n = getline(&line, &capacity, file)
            guard n > 0, let line else { return }
            try line.withMemoryRebound(to: UInt8.self, capacity: n) { try body(UnsafeBufferPointer(start: $0, count: n)) }
        }
    }
}
