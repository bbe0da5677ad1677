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

    /// The same rules for a container runtime's log: a `cri` or `docker` parser whose inner regex parser is the
    /// pattern above, the multiline rule on the container parser (it joins per stream); one source over `files`.
    static func containerJSON(format: String, files: [String], output: String, checkpoints: String? = nil, pathFields: Bool = false) -> String {
        var json = json(output: output)
        let parse = #"""
              "pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$",
                "multiline": { "continuation": "^\\s" },
            """#
        json = json.replacingOccurrences(of: parse, with: "")
        let include = files.map { "\"\($0)\"" }.joined(separator: ", ")
        let fields = pathFields ? #", "pathFields": "/(?<namespace>[^_/]+)_(?<pod>[^_/]+)_(?<uid>[^/]+)/(?<container>[^/]+)/", "pathFieldsKey": "k8s""# : ""
        let head = #"""
            {
              "sources": [{"name": "pods", "include": [\#(include)], "parser": "c", "startAt": "beginning"\#(fields)}],
              \#(checkpoints.map { #""checkpoints": "\#($0)","# } ?? "")
              "parsers": {
                "c": { "format": "\#(format)", "inner": "app", "multiline": { "continuation": "^\\s" } },
                "app": { "format": "regex", "pattern": "^(?<timestamp>\\S+) (?<level>DEBUG|INFO|WARN|ERROR) (?<tags>(?:\\[[a-z]+\\] )*)(?<message>.*)$" }
              },
            """#
        return head + json.dropFirst(2)
    }
}

