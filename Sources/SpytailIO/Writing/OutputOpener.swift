import SpytailCore

/// Opens the configured outputs as sinks: stdout or appended files, each with its format's formatter.
public enum OutputOpener {
    /// One formatter and writer per output of `config`, in order; `auto` colour means "on a terminal".
    public static func open(_ outputs: [SpytailConfig.Output], sources: [SpytailConfig.Source], vocabulary: Vocabulary,
                            resolve: (String) -> String, remote: (any RemoteOutputOpener)? = nil) throws(SinkError) -> [OpenOutput] {
        var opened: [OpenOutput] = []
        for output in outputs {
            let writer: any ByteWriter
            var isTerminal = false
            switch output.destination {
            case .stdout:
                let standardOutput = FileDescriptorWriter.standardOutput()
                (writer, isTerminal) = (standardOutput, standardOutput.isTerminal)
            case .file(let path) where SourcePathTemplate.holdsPlaceholder(path):
                writer = SourceRoutedWriter(template: SourcePathTemplate(resolve(path), sources: sources))
            case .file(let path):
                let file = try FileDescriptorWriter.appending(to: resolve(path))
                (writer, isTerminal) = (file, file.isTerminal)
            case .clickhouse, .syslog:
                guard let remote else {
                    throw SinkError(destination: output.destination.name, cause: .unusable("network outputs are shipped by `spytail run` only"))
                }
                opened.append(try remote.open(output, vocabulary: vocabulary, resolve: resolve))
                continue
            }
            let color: Bool
            switch output.color {
            case .always: color = true
            case .never: color = false
            case .auto: color = isTerminal
            }
            opened.append(OpenOutput(formatter: output.format.makeFormatter(vocabulary: vocabulary, color: color), writer: writer))
        }
        return opened
    }
}
