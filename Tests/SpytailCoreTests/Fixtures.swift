@testable import SpytailCore

/// Builds the pieces of a pipeline from config JSON, for table-driven tests without disk.
enum Fixtures {
    static let pattern = #"^(?<timestamp>\S+) (?<level>[A-Z]+) (?<tags>(?:\[[a-z]+\] )*)(?<message>.*)$"#

    static let configJSON = #"""
    {
      "parse": {
        "pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
        "multiline": { "continuation": "^\\s" },
        "maxLineBytes": 64,
        "categories": [
          { "name": "error", "display": "E", "color": "red", "match": { "field": "level", "regex": "^(ERROR|FATAL)$" } },
          { "name": "debug", "display": "D", "match": { "field": "level", "prefix": "DEBUG" } },
          { "name": "store", "display": "S", "match": { "prefix": "Store:" } },
          { "name": "info", "display": "I", "default": true }
        ],
        "tags": [
          { "name": "tca", "display": "🏪", "match": { "field": "tags", "contains": "[tca]" } },
          { "name": "db", "display": "🗄", "match": { "field": "tags", "contains": "[db]" } },
          { "name": "slow", "display": "🐢", "match": { "regex": "dur_ms=[0-9]{4,}" } }
        ]
      },
      "integrations": [ { "name": "tca", "ignorablePrefixes": ["Store: heartbeat", "Store: tick"] } ]
    }
    """#

    static func compiled(filters: String = "[]", outputs: String = #"[{"type": "stdout"}]"#, pattern: String? = nil) throws -> CompiledConfig {
        var json = configJSON
        if let pattern {  // another parse.pattern, as a JSON string
            let escaped = pattern.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            json = json.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.contains("\"pattern\":") ? "    \"pattern\": \"\(escaped)\"," : String($0) }
                .joined(separator: "\n")
        }
        json.removeLast(2)
        json += #", "filters": \#(filters), "outputs": \#(outputs) }"#
        return try CompiledConfig(json: Array(json.utf8))
    }

    static let file = SourceFile(path: "/logs/app.log", fingerprint: Fingerprint(value: 0xABCDEF))

    /// Runs `text` through a stream and the pipeline; returns every entry `sink` got.
    static func run(_ text: String, pipeline: EntryPipeline) throws {
        var stream = pipeline.makeStream(for: file)
        try Array(text.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
            try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
        }
        try stream.finish { (entry) throws(SinkError) in try pipeline.process(&entry) }
        try pipeline.flush()
    }

    /// Like `run`, without the final flush.
    static func runWithoutFlush(_ text: String, pipeline: EntryPipeline) throws {
        var stream = pipeline.makeStream(for: file)
        try Array(text.utf8).withUnsafeBufferPointer { bytes throws(SinkError) in
            try stream.push(bytes) { (entry) throws(SinkError) in try pipeline.process(&entry) }
        }
        try stream.finish { (entry) throws(SinkError) in try pipeline.process(&entry) }
    }
}
