import CZlib
import Glibc

/// Writes generated logs to disk: one plain file, or a logrotate-style chain `app.log.K.gz` … `app.log.2.gz`,
/// `app.log.1`, `app.log` with the oldest lines in the highest number, cut at event boundaries (a logger
/// writes a head and its trace at once).
public enum ChainWriter {
    public enum WriteError: Error, CustomStringConvertible {
        case cannotCreate(path: String, errno: Int32)
        case cannotOpen(path: String, errno: Int32)
        case writeFailed(path: String)

        public var description: String {
            switch self {
            case .cannotCreate(let path, let code): "\(path): cannot create: \(String(cString: strerror(code)))"
            case .cannotOpen(let path, let code): "\(path): cannot open: \(String(cString: strerror(code)))"
            case .writeFailed(let path): "\(path): write failed"
            }
        }
    }

    /// The chain's file names, oldest first, for `rotations` rotated copies.
    public static func chainNames(rotations: Int) -> [String] {
        (0..<rotations).reversed().map { $0 == 0 ? "app.log.1" : "app.log.\($0 + 1).gz" } + ["app.log"]
    }

    /// `lines` lines into one plain file at `path`.
    public static func writeFile(lines: Int, seed: UInt64 = 42, to path: String) throws -> GeneratedCounts {
        try write(lines: lines, seed: seed, paths: [path])
    }

    /// `lines` lines over a chain of `rotations` rotated copies plus the live `app.log` in `directory`.
    public static func writeChain(lines: Int, seed: UInt64 = 42, rotations: Int, in directory: String) throws -> GeneratedCounts {
        mkdir(directory, 0o755)
        return try write(lines: lines, seed: seed, paths: chainNames(rotations: rotations).map { "\(directory)/\($0)" })
    }

    static func write(lines: Int, seed: UInt64, paths: [String]) throws -> GeneratedCounts {
        var counts = GeneratedCounts()
        let perFile = Double(lines) / Double(paths.count)
        var index = 0
        var file = try OutputFile(path: paths[0])
        var fileLines = 0, fileBytes = 0
        func finish() throws {
            try file.close()
            counts.files.append(.init(path: paths[index], lines: fileLines, bytes: fileBytes))
            fileLines = 0; fileBytes = 0
        }
        for event in LogGenerator(lines: lines, seed: seed) {
            if index < paths.count - 1 && Double(counts.lines) >= perFile * Double(index + 1) {
                try finish()
                index += 1
                file = try OutputFile(path: paths[index])
            }
            var text = event.lines.joined(separator: "\n")
            text += "\n"
            try file.write(text)
            fileLines += event.lines.count
            fileBytes += text.utf8.count
            counts.count(event)
        }
        try finish()
        while index < paths.count - 1 {  // tiny workloads: the remaining files are empty
            index += 1
            file = try OutputFile(path: paths[index])
            try finish()
        }
        counts.bytes = counts.files.reduce(0) { $0 + $1.bytes }
        return counts
    }
}

/// A plain or gzip file (by its name) written through a buffer.
struct OutputFile {
    private enum Handle { case plain(UnsafeMutablePointer<FILE>), gzip(gzFile) }
    private let handle: Handle
    private let path: String

    init(path: String) throws {
        self.path = path
        unlink(path)
        if path.hasSuffix(".gz") {
            guard let gz = gzopen(path, "wb6") else { throw ChainWriter.WriteError.cannotCreate(path: path, errno: errno) }
            handle = .gzip(gz)
        } else {
            guard let file = fopen(path, "w") else { throw ChainWriter.WriteError.cannotCreate(path: path, errno: errno) }
            handle = .plain(file)
        }
    }

    func write(_ text: String) throws {
        var text = text
        let ok = text.withUTF8 { bytes -> Bool in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
            switch handle {
            case .plain(let file): return fwrite(base, 1, bytes.count, file) == bytes.count
            case .gzip(let gz): return gzwrite(gz, base, UInt32(bytes.count)) == Int32(bytes.count)
            }
        }
        if !ok { throw ChainWriter.WriteError.writeFailed(path: path) }
    }

    func close() throws {
        let ok: Bool
        switch handle {
        case .plain(let file): ok = fclose(file) == 0
        case .gzip(let gz): ok = gzclose(gz) == Z_OK
        }
        if !ok { throw ChainWriter.WriteError.writeFailed(path: path) }
    }
}
