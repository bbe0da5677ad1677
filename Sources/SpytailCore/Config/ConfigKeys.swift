/// The keys each object of the config may hold: one table, read by the decoder and its unknown-key messages.
enum ConfigKeys {
    static let root = ["sources", "checkpoints", "parse", "parsers", "integrations", "filters", "outputs", "state", "tail", "http"]
    static let source = ["name", "include", "exclude", "rotated", "startAt", "followSymlinks", "olddir", "rotatedPattern", "parser",
                              "pathFields", "pathFieldsKey"]
    static let parse = ["pattern", "timestampFormat", "multiline", "maxLineBytes", "categories", "tags"]
    static let multiline = ["continuation", "idleTimeoutMs"]
    static let category = ["name", "display", "color", "match", "default"]
    static let tag = ["name", "display", "match"]
    static let parser = ["format", "pattern", "timestampKey", "timestampFormat", "messageKey", "types", "multiline", "maxLineBytes", "inner"]
    /// The keys of a condition (a filter's `exclude`, an output's `where`, a rule's `match`).
    static let condition = ["contains", "prefix", "regex", "tag", "category", "integration", "source", "field",
                            "equals", "in", "exists", "gt", "gte", "lt", "lte", "all", "any", "not"]
    static let match = condition
    static let integration = ["name", "ignorablePrefixes"]
    static let filter = ["exclude"]
    static let output = ["type", "path", "format", "color", "where"]
    static let clickhouseOutput = ["type", "where", "url", "database", "table", "user", "passwordFile", "caFile", "createTable", "insertFormat",
                                   "batchMaxRecords", "batchMaxMs", "bufferMaxRecords", "shutdownTimeoutMs"]
    static let syslogOutput = ["type", "where", "address", "protocol", "appName", "hostname", "facility", "severity",
                               "batchMaxRecords", "batchMaxMs", "bufferMaxRecords", "shutdownTimeoutMs"]
    static let tail = ["maxOpenFiles", "rotateWaitMs", "syncIntervalMs"]
    static let http = ["listen", "tokenFile", "recentEntries", "maxViewers"]
}
