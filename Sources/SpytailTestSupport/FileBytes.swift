import Glibc

/// A whole file's bytes, for tests reading back what spytail wrote.
public enum FileBytes {
    /// The file's bytes; nil when it cannot be opened.
    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return out }
            out += chunk[..<n]
        }
    }
}
