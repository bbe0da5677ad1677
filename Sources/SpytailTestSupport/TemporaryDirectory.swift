import Glibc
import SpytailIO

/// A fresh folder under $TMPDIR (or /tmp), removed with everything in it by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init(_ label: String = "spytail") {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/\(label).XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `bytes` to `name` in this folder, replacing it.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(target)")
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count { offset += Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
        }
        close(fd)
        return target
    }

    @discardableResult
    public func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    public func read(_ name: String) -> [UInt8] { FileBytes.read(file(name)) ?? [] }

    public func remove() { Self.removeTree(path) }

    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            chmod(path, 0o755)
            for name in Paths.names(in: path) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
