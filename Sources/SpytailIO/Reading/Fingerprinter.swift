import Glibc
import SpytailCore

/// The one way a file's content is recognised: the fingerprint of its first decompressed line (up to
/// `Fingerprint.headLimit` bytes), read from a path (plain or gzip, by content), from an open descriptor
/// (pread: its read position stays), or from the head of a source being read.
public enum Fingerprinter {
    /// The head of a source just opened, read into `buffer` (the bytes stay there for the caller to use).
    public struct Head {
        public let fingerprint: Fingerprint?
        /// Bytes of the source now in the buffer.
        public let count: Int
        public let atEnd: Bool
    }

    /// Reads the head of `source` into `buffer`; the fingerprint is nil when the source is empty.
    public static func head(of source: any ByteSource, into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Head {
        let (count, atEnd) = try source.readHead(into: buffer)
        let bytes = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        return Head(fingerprint: Fingerprint.of(head: bytes, complete: atEnd), count: count, atEnd: atEnd)
    }

    /// The fingerprint of the file at `path` (nil: unreadable, empty, or no descriptor free to open it).
    public static func ofFile(_ path: String) -> Fingerprint? { look(atFile: path).fingerprint }

    /// The fingerprint of the file at `path`, or why there is none: nothing to recognise, or no descriptor to look.
    public static func look(atFile path: String) -> FileLook {
        let source: any ByteSource
        do throws(ReadError) {
            source = try FileOpener.open(path)
        } catch {
            if error.wantsDescriptor { return .noDescriptor }
            return .nothing
        }
        return of(source).map(FileLook.content) ?? .nothing
    }

    /// The fingerprint of a source just opened (nil: empty, or its first line cannot be read yet).
    public static func of(_ source: any ByteSource) -> Fingerprint? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Fingerprint.headLimit, alignment: 1)
        defer { buffer.deallocate() }
        return (try? head(of: source, into: buffer))?.fingerprint
    }

    /// The fingerprint of the open plain file `fd` and how many bytes its first line covers (nil: empty, or
    /// the first line is not complete yet and `complete` is false).
    public static func ofDescriptor(_ fd: Int32, complete: Bool) -> (fingerprint: Fingerprint, covered: Int)? {
        var bytes = [UInt8](repeating: 0, count: Fingerprint.headLimit)
        let n = (try? bytes.withUnsafeMutableBytes { (raw) throws(Errno) in try Syscall.pread(fd, raw, at: 0) }) ?? 0
        guard n > 0 else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            let head = UnsafeBufferPointer(rebasing: all[..<n])
            return Fingerprint.of(head: head, complete: complete).map { ($0, Fingerprint.coveredLength(head: head)) }
        }
    }
}
