/// What a view filter is compiled against: the running config's integrations and its vocabulary.
public struct ViewContext: Sendable {
    public let config: SpytailConfig
    public let vocabulary: Vocabulary
    public init(config: SpytailConfig, vocabulary: Vocabulary) {
        self.config = config
        self.vocabulary = vocabulary
    }
    public init(_ compiled: CompiledConfig) { self.init(config: compiled.config, vocabulary: compiled.rules.vocabulary) }
}
