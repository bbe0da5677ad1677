import SpytailCore

/// Opens the configured outputs as sinks: stdout or appended files, each with its format's formatter.
public enum OutputOpener {
    /// One formatter and writer per output of `config`, in order; `auto` colour means "on a terminal".
    public static func open(_ outputs: [SpytailConfig.Output], vocabulary: Vocabulary,
                            resolve: (String) -> String, remote: (any RemoteOutputOpener)? = nil) throws(SinkError) -> [OpenOutput] {
        var opened: [OpenOutput] = []
        for output in outputs {
            let writer: FileDescriptorWriter
            switch output.destination {
            case .stdout: writer = .standardOutput()
            case .file(let path): writer = try .appending(to: resolve(path))
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
            case .auto: color = writer.isTerminal
            }
            opened.append(OpenOutput(formatter: output.format.makeFormatter(vocabulary: vocabulary, color: color), writer: writer))
        }
        return opened
    }
}
