import Foundation
@testable import SpytailCore
import SpytailTestSupport

/// Runs lines of one source through a compiled config and a formatter: what an output would hold.
enum Structured {
    static func compile(_ json: String) throws -> CompiledConfig { try CompiledConfig(json: Array(json.utf8)) }

    /// The records `format` writes for `text` read as a file of source `source` (an index; -1: none).
    static func records(_ text: String, config: CompiledConfig, source: Int = 0,
                        format: SpytailConfig.Output.Format = .jsonl) throws -> [String] {
        let writer = RecordingByteWriter()
        let sink = FormattingSink(formatter: format.makeFormatter(vocabulary: config.rules.vocabulary, color: false), writer: writer)
        let pipeline = EntryPipeline(rules: config.rules, continuation: nil, maxLineBytes: 1 << 20, filters: config.filters,
                                     routes: [.init(condition: config.outputConditions.first ?? nil, sink: sink)])
        let file = SourceFile(path: "/logs/app.json", fingerprint: Fingerprint(value: 1), source: source)
        var stream = pipeline.makeStream(for: file)
        try Array(text.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
            try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
        }
        try stream.finish { (entry) throws(SinkError) in try pipeline.process(&entry) }
        try pipeline.flush()
        return writer.lines
    }

    /// The records as JSON objects.
    static func objects(_ text: String, config: CompiledConfig, source: Int = 0) throws -> [[String: Any]] {
        try records(text, config: config, source: source).map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// The entries a recording sink gets.
    static func entries(_ text: String, config: CompiledConfig, source: Int = 0) throws -> [SpyEntry] {
        let sink = RecordingEntrySink()
        let pipeline = EntryPipeline(rules: config.rules, continuation: nil, maxLineBytes: 1 << 20, filters: config.filters,
                                     routes: [.init(condition: nil, sink: sink)])
        let file = SourceFile(path: "/logs/app.json", fingerprint: Fingerprint(value: 1), source: source)
        var stream = pipeline.makeStream(for: file)
        try Array(text.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
            try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
        }
        try stream.finish { (entry) throws(SinkError) in try pipeline.process(&entry) }
        return sink.entries
    }

    /// A config with one source `app` read by `parser` (JSON text of the parser), plus `rest` (more top-level keys).
    static func config(parser: String, rest: String = "") throws -> CompiledConfig {
        try compile(#"{"sources": [{"name": "app", "include": ["*.json"], "parser": "p"}], "parsers": {"p": \#(parser)}\#(rest)}"#)
    }
}
