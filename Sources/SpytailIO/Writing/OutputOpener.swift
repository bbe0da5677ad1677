import SpytailCore

/// Opens the configured outputs as sinks: stdout or appended files, each with its format's formatter.
public enum OutputOpener {
    /// One sink per output of `config`, in order. `colorOnTerminal` decides `auto` colour.
    public static func open(_ outputs: [SpytailConfig.Output], vocabulary: Vocabulary,
                            resolve: (String) -> String) throws(SinkError) -> [FormattingSink] {
        var sinks: [FormattingSink] = []
        for output in outputs {
            let writer: FileDescriptorWriter
            switch output.destination {
            case .stdout: writer = .standardOutput()
            case .file(let path): writer = try .appending(to: resolve(path))
            }
            let color: Bool
            switch output.color {
            case .always: color = true
            case .never: color = false
            case .auto: color = writer.isTerminal
            }
            sinks.append(FormattingSink(formatter: output.format.makeFormatter(vocabulary: vocabulary, color: color), writer: writer))
        }
        return sinks
    }
}
