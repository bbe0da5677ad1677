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
    init(_ file: ConfigFile, remote: (any RemoteOutputOpener)?) throws(SinkError) {
        self.file = file
        outputs = try OutputOpener.open(file.config.outputs, sources: file.config.sources, vocabulary: file.compiled.rules.vocabulary, resolve: file.resolve,
                                        remote: remote)
        pipeline = EntryPipeline(config: file.compiled, sinks: outputs.map { $0.makeSink() })
        discovery = PathDiscovery(baseDirectory: file.baseDirectory, sources: file.config.sources)
        settings = RunSettings(config: file.config, processOpenFileLimit: OpenFileLimit.descriptors)
    }

    var sources: [SpytailConfig.Source] { file.config.sources }
    /// The source a live path belongs to: the first whose patterns take it.
    func source(ofLive path: String) -> SpytailConfig.Source? { sources.first { discovery.isLiveFile(path, of: $0) } }

    /// The index of that source (`SourceFile.source`), or `SourceFile.unnamed`.
    func sourceIndex(ofLive path: String) -> Int { sources.firstIndex { discovery.isLiveFile(path, of: $0) } ?? SourceFile.unnamed }

    /// The identity entries of `livePath` carry: its path, content (in its `epoch`) and source.
    func sourceFile(_ livePath: String, fingerprint: Fingerprint, epoch: Int) -> SourceFile {
        SourceFile(path: livePath, fingerprint: fingerprint, source: sourceIndex(ofLive: livePath), epoch: epoch)
    }

    /// The parser (line limit, multiline rule) of a file of `source`.
    func parser(forSource source: Int) -> LineParser { file.compiled.parser(forSource: source) }

    /// The outputs acknowledged later than written (network outputs).
    var deliveries: [any AcknowledgingOutput] { outputs.compactMap(\.delivery) }
    var ledgers: [DeliveryLedger] { deliveries.map(\.ledger) }

    /// Starts the network outputs, which take over what the same outputs of `previous` (a reload: same
    /// index, same kind) have not delivered; the ones the new config dropped stop, their records abandoned.
    func startDeliveries(after previous: RunConfiguration?, notify: @escaping @Sendable (DeliveryNotice) -> Void) {
        var adopted = Set<ObjectIdentifier>()
        for (i, output) in outputs.enumerated() {
            guard let delivery = output.delivery else { continue }
            if let previous, i < previous.outputs.count, let old = previous.outputs[i].delivery,
               type(of: old) == type(of: delivery) {
                delivery.adopt(old)
                adopted.insert(ObjectIdentifier(old))
            }
            delivery.start(notify: notify)
        }
        for old in previous?.deliveries ?? [] where !adopted.contains(ObjectIdentifier(old)) {
            old.stop()
            old.ledger.retire()
        }
    }

    /// Stops the network outputs without waiting (a refused reload's, or the run's on an error).
    func stopDeliveries() { for delivery in deliveries { delivery.stop() } }
}
