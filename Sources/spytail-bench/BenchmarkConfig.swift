/// The config the benchmark runs: one pattern for timestamp, level and tags; the category from the level;
/// four `contains` tag rules and one `prefix` rule; DEBUG and "heartbeat" excluded; multiline on; jsonl
/// to a file.
enum BenchmarkConfig {
    /// `outputs`: the outputs array's members instead of one jsonl file at `output`.
    static func json(output: String, outputs: String? = nil) -> String {
        #"""
        {
          "parse": {
            "pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
            "multiline": { "continuation": "^\\s" },
            "categories": [
              { "name": "error", "match": { "field": "level", "prefix": "ERROR" } },
              { "name": "warning", "match": { "field": "level", "prefix": "WARN" } },
              { "name": "debug", "match": { "field": "level", "prefix": "DEBUG" } },
              { "name": "store", "match": { "prefix": "Store: " } },
              { "name": "info", "default": true }
            ],
            "tags": [
              { "name": "tca", "match": { "field": "tags", "contains": "[tca]" } },
              { "name": "todos", "match": { "field": "tags", "contains": "[todos]" } },
              { "name": "network", "match": { "field": "tags", "contains": "[network]" } },
              { "name": "db", "match": { "field": "tags", "contains": "[db]" } }
            ]
          },
          "filters": [ { "exclude": { "category": "debug" } }, { "exclude": { "contains": "heartbeat" } } ],
          "outputs": [ \#(outputs ?? #"{ "type": "file", "path": "\#(output)", "format": "jsonl" }"#) ]
        }
        """#
    }
}
