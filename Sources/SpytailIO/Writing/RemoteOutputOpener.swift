import SpytailCore

/// Opens the outputs that need a network client (ClickHouse), which the I/O layer does not link: the CLI
/// passes one in.
public protocol RemoteOutputOpener: Sendable {
    func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput
}
