import Glibc
import SpytailCore

/// A file output whose path holds placeholders (`{source}`, `{k8s.namespace}`): each file's entries are
/// appended to the file its path names, opened (created) when its first bytes come, and kept open.
final class SourceRoutedWriter: ByteWriter {
    let template: SourcePathTemplate
    private var writers: [String: FileDescriptorWriter] = [:]

    init(template: SourcePathTemplate) {
        self.template = template
    }

    var name: String { template.template }
    var routesByFile: Bool { true }

    func forFile(_ file: SourceFile) throws(SinkError) -> any ByteWriter {
        let path = template.path(for: file)
        if let writer = writers[path] { return writer }
        makeFolders(of: path)
        let writer = try FileDescriptorWriter.appending(to: path)
        writers[path] = writer
        return writer
    }

    /// A placeholder may name a folder (`/srv/out/{k8s.namespace}/app.jsonl`): the folders below the template's
    /// first placeholder are made as needed (0750), the ones above it must exist.
    private func makeFolders(of path: String) {
        let root = SourcePathTemplate.fixedFolder(of: template.template)
        var folder = Paths.parent(of: path)
        var missing: [String] = []
        while folder.count > root.count, Syscall.stat(folder) == nil {
            missing.append(folder)
            folder = Paths.parent(of: folder)
        }
        for folder in missing.reversed() { mkdir(folder, 0o750) }
    }

    /// Syncs every file opened so far (they stay open), all of them even when one fails.
    func sync() throws(SinkError) {
        var first: SinkError?
        for writer in writers.values {
            do { try writer.sync() } catch { first = first ?? error }
        }
        if let first { throw first }
    }

    /// Bytes not attributed to a file go to the unnamed file (nothing writes them so today).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        try forFile(SourceFile(path: "", fingerprint: Fingerprint(value: 0))).write(bytes)
    }
}
