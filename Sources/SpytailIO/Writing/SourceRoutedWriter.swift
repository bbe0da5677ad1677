import SpytailCore

/// A file output whose path holds `{source}`: each source's entries are appended to the file named by
/// it, opened (created) when that source's first bytes come.
final class SourceRoutedWriter: ByteWriter {
    let template: String
    let sources: [String]
    private var writers: [Int: FileDescriptorWriter] = [:]

    init(template: String, sources: [String]) {
        self.template = template
        self.sources = sources
    }

    var name: String { template }
    var routesBySource: Bool { true }

    func forSource(_ source: Int) throws(SinkError) -> any ByteWriter {
        if let writer = writers[source] { return writer }
        let writer = try FileDescriptorWriter.appending(to: SourcePathTemplate.path(template, source: source, names: sources))
        writers[source] = writer
        return writer
    }

    /// Bytes not attributed to a source go to the unnamed file (nothing writes them so today).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        try forSource(SourceFile.unnamed).write(bytes)
    }
}
