import SpytailCore

/// Everything `run` derives from one config file, made once and swapped as one value on reload: the file,
/// the pipeline with its opened outputs, path discovery, and the durations and limits.
struct RunConfiguration {
    let file: ConfigFile
    let pipeline: EntryPipeline
    /// The opened outputs the pipeline's sinks write through (a backlog's blocks are written to them too).
    let outputs: [OpenOutput]
    let discovery: PathDiscovery
    let settings: RunSettings

    /// Opens the outputs and compiles what the file says; fails when an output cannot be opened.
    init(_ file: ConfigFile) throws(SinkError) {
        self.file = file
        outputs = try OutputOpener.open(file.config.outputs, vocabulary: file.compiled.rules.vocabulary, resolve: file.resolve)
        pipeline = EntryPipeline(config: file.compiled, sinks: outputs.map { FormattingSink(formatter: $0.formatter, writer: $0.writer) })
        discovery = PathDiscovery(baseDirectory: file.baseDirectory, sources: file.config.sources)
        settings = RunSettings(config: file.config)
    }
}
