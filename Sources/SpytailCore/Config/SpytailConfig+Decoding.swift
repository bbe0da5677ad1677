/// Reading a config from JSON: every key checked for type, unknown keys rejected, errors collected
/// with their JSON path.
extension SpytailConfig {
    /// Decodes `bytes` (UTF-8 JSON). Throws every structural problem found, with paths.
    public static func decode(_ bytes: [UInt8]) throws(ConfigErrors) -> SpytailConfig {
        let json = try JSONValue.parse(bytes)
        let diagnostics = ConfigDiagnostics()
        let config = decode(json, diagnostics)
        if !diagnostics.errors.isEmpty { throw ConfigErrors(diagnostics.errors) }
        return config
    }

    static func decode(_ json: JSONValue, _ d: ConfigDiagnostics) -> SpytailConfig {
        var config = SpytailConfig()
        guard let top = ObjectReader(json, at: .root, d, keys: ConfigKeys.root) else { return config }
        config.sources = top.array("sources")?.compactMap { decodeSource($0.value, $0.path, d) } ?? []
        config.checkpoints = top.string("checkpoints")
        if let parse = top.object("parse", keys: ConfigKeys.parse) { config.parse = decodeParse(parse, d) }
        config.parsers = decodeParsers(top, d)
        config.integrations = top.array("integrations")?.compactMap { decodeIntegration($0.value, $0.path, d) } ?? []
        config.filters = top.array("filters")?.compactMap { decodeFilter($0.value, $0.path, d) } ?? []
        if let outputs = top.array("outputs") {
            config.outputs = outputs.compactMap { decodeOutput($0.value, $0.path, d) }
        }
        config.state = top.choice("state", SpyState.self) ?? .recording
        if let tail = top.object("tail", keys: ConfigKeys.tail) {
            config.tail.maxOpenFiles = tail.integer("maxOpenFiles", in: 8...1_000_000) ?? config.tail.maxOpenFiles
            config.tail.rotateWaitMs = tail.integer("rotateWaitMs", in: 0...3_600_000) ?? config.tail.rotateWaitMs
            config.tail.syncIntervalMs = tail.integer("syncIntervalMs", in: 0...3_600_000) ?? config.tail.syncIntervalMs
            tail.finish()
        }
        if let http = top.object("http", keys: ConfigKeys.http) { config.http = decodeHTTP(http) }
        top.finish()
        return config
    }

    static func decodeHTTP(_ r: ObjectReader) -> HTTP? {
        defer { r.finish() }
        let listen = r.string("listen", required: true)
        let tokenFile = r.string("tokenFile")
        let recent = r.integer("recentEntries", in: 0...1_000_000)
        let viewers = r.integer("maxViewers", in: 0...10_000)
        guard let listen else { return nil }
        switch ListenAddress.parse(listen) {
        case .failure(let error):
            r.report("listen", .invalidValue(error.message))
            return nil
        case .success(let address):
            var http = HTTP(listen: address)
            http.tokenFile = tokenFile
            http.recentEntries = recent ?? http.recentEntries
            http.maxViewers = viewers ?? http.maxViewers
            return http
        }
    }

    static func decodeSource(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Source? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.source) else { return nil }
        defer { r.finish() }
        // Every key is read (and type-checked) before a missing or mistyped required one gives up.
        let name = r.string("name", required: true)
        let include = r.strings("include", required: true)
        if include?.isEmpty == true { r.report("include", .invalidValue("must name at least one pattern")) }
        let exclude = r.strings("exclude") ?? []
        let rotated = r.bool("rotated") ?? true
        let startAt = r.choice("startAt", Source.StartAt.self) ?? .beginning
        let followSymlinks = r.bool("followSymlinks") ?? false
        let olddir = r.string("olddir")
        let rotatedPattern = r.string("rotatedPattern")
        let parser = r.string("parser")
        let pathFields = r.string("pathFields")
        let pathFieldsKey = r.string("pathFieldsKey")
        if pathFieldsKey != nil && pathFields == nil { r.report("pathFieldsKey", .invalidValue("only a source with pathFields takes pathFieldsKey")) }
        if let key = pathFieldsKey, key.isEmpty || key.contains(".") {
            r.report("pathFieldsKey", .invalidValue("'\(key)' must be one key without a dot, such as k8s"))
        }
        guard let name, let include else { return nil }
        var source = Source(name: name, include: include)
        source.exclude = exclude
        source.rotated = rotated
        source.startAt = startAt
        source.followSymlinks = followSymlinks
        source.olddir = olddir
        source.rotatedPattern = rotatedPattern
        source.parser = parser
        source.pathFields = pathFields
        if let pathFieldsKey { source.pathFieldsKey = pathFieldsKey }
        return source
    }

    static func decodeParse(_ reader: ObjectReader, _ d: ConfigDiagnostics) -> Parse {
        let r = reader
        defer { r.finish() }
        var parse = Parse()
        parse.pattern = r.string("pattern")
        parse.timestampFormat = decodeTimestampFormat(r) ?? .iso8601
        parse.multiline = decodeMultiline(r)
        parse.maxLineBytes = r.integer("maxLineBytes", in: 64...(1 << 30)) ?? parse.maxLineBytes
        if let categories = r.array("categories") {
            parse.categories = categories.compactMap { decodeCategory($0.value, $0.path, d) }
        }
        parse.tags = r.array("tags")?.compactMap { decodeTag($0.value, $0.path, d) } ?? []
        return parse
    }

    static func decodeCategory(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Category? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.category) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let display = r.string("display") ?? name
        let color = r.string("color")
        let match = r.object("match", keys: ConfigKeys.match).flatMap { decodeCondition($0, d, inRule: true) }
        let isDefault = r.bool("default") ?? false
        if match == nil && !isDefault && !r.has("match") {
            r.report(nil, .invalidValue("a category needs a 'match' or \"default\": true"))
        }
        guard let name, let display else { return nil }
        return Category(name: name, display: display, color: color, match: match, isDefault: isDefault)
    }

    static func decodeTag(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Tag? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.tag) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let display = r.string("display") ?? name
        let match = r.object("match", keys: ConfigKeys.match, required: true).flatMap { decodeCondition($0, d, inRule: true) }
        guard let name, let display, let match else { return nil }
        return Tag(name: name, display: display, match: match)
    }

    static func decodeIntegration(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Integration? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.integration) else { return nil }
        defer { r.finish() }
        let name = r.string("name", required: true)
        let prefixes = r.strings("ignorablePrefixes", required: true)
        guard let name, let prefixes else { return nil }
        return Integration(name: name, ignorablePrefixes: prefixes)
    }

    static func decodeFilter(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Condition? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.filter) else { return nil }
        defer { r.finish() }
        guard let condition = r.object("exclude", keys: ConfigKeys.condition, required: true) else { return nil }
        return decodeCondition(condition, d, inRule: false)
    }

    static func decodeOutput(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Output? {
        if case .object(let members) = json, members["type"] == .string("clickhouse") {
            return decodeClickHouse(json, path, d)
        }
        if case .object(let members) = json, members["type"] == .string("syslog") {
            return decodeSyslog(json, path, d)
        }
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.output) else { return nil }
        defer { r.finish() }
        let type = r.string("type", required: true)
        let filePath = r.string("path")
        let format = r.choice("format", Output.Format.self)
        let color = r.choice("color", Output.Color.self) ?? .auto
        let condition = r.object("where", keys: ConfigKeys.condition).flatMap { decodeCondition($0, d, inRule: false) }
        let destination: Output.Destination
        switch type {
        case "stdout":
            if filePath != nil { r.report("path", .invalidValue("only outputs of type 'file' take a path")) }
            destination = .stdout
        case "file":
            guard let filePath else {
                if !r.has("path") { r.report("path", .missingKey) }
                return nil
            }
            destination = .file(filePath)
        case nil:
            return nil
        case let other?:
            r.report("type", .invalidValue("'\(other)' is not one of: stdout, file, clickhouse, syslog"))
            return nil
        }
        var output = Output(destination: destination, format: format ?? (destination == .stdout ? .text : .jsonl),
                            whereCondition: condition)
        output.color = color
        return output
    }

    static func decodeClickHouse(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Output? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.clickhouseOutput) else { return nil }
        defer { r.finish() }
        let condition = r.object("where", keys: ConfigKeys.condition).flatMap { decodeCondition($0, d, inRule: false) }
        guard let url = r.string("url", required: true) else { return nil }
        guard let endpoint = HTTPEndpoint(url) else {
            r.report("url", .invalidValue("'\(url)' is not an http:// or https:// address with a host (and no path)"))
            return nil
        }
        var output = ClickHouseOutput(url: endpoint.description)
        for key in ["database", "table"] {
            guard let name = r.string(key) else { continue }
            guard ClickHouseTable.isPlainName(name) else {
                r.report(key, .invalidValue("'\(name)' must be letters, digits and '_', not starting with a digit"))
                continue
            }
            if key == "database" { output.database = name } else { output.table = name }
        }
        output.user = r.string("user") ?? output.user
        output.passwordFile = r.string("passwordFile")
        if let caFile = r.string("caFile") {
            if endpoint.secure { output.caFile = caFile } else { r.report("caFile", .invalidValue("only with an https:// url")) }
        }
        output.createTable = r.bool("createTable") ?? false
        output.insertFormat = r.choice("insertFormat", ClickHouseOutput.InsertFormat.self) ?? output.insertFormat
        (output.batchMaxRecords, output.batchMaxMs, output.bufferMaxRecords, output.shutdownTimeoutMs) =
            decodeDeliveryLimits(r, maxBatch: 1_000_000, defaults: (output.batchMaxRecords, output.batchMaxMs, output.bufferMaxRecords, output.shutdownTimeoutMs))
        return Output(destination: .clickhouse(output), format: .jsonl, whereCondition: condition)
    }

    static func decodeSyslog(_ json: JSONValue, _ path: JSONPath, _ d: ConfigDiagnostics) -> Output? {
        guard let r = ObjectReader(json, at: path, d, keys: ConfigKeys.syslogOutput) else { return nil }
        defer { r.finish() }
        let condition = r.object("where", keys: ConfigKeys.condition).flatMap { decodeCondition($0, d, inRule: false) }
        guard let address = r.string("address", required: true) else { return nil }
        guard let (host, port) = SyslogOutput.parseAddress(address) else {
            r.report("address", .invalidValue("'\(address)' is not HOST:PORT"))
            return nil
        }
        var output = SyslogOutput(host: host, port: port)
        output.transport = r.choice("protocol", SyslogOutput.Transport.self) ?? .relp
        if let app = r.string("appName") {
            if app.utf8.count > 48 || !app.utf8.allSatisfy({ (33...126).contains($0) }) {
                r.report("appName", .invalidValue("at most 48 printable ASCII characters, no spaces"))
            } else {
                output.appName = app
            }
        }
        output.hostname = r.string("hostname") ?? ""
        if let facility = r.string("facility") {
            if let code = SyslogCodes.facilities[facility] { output.facility = code } else {
                r.report("facility", .invalidValue("'\(facility)' is not one of: \(SyslogCodes.facilities.keys.sorted().joined(separator: ", "))"))
            }
        }
        if let severity = r.value("severity") {
            if case .object(let members) = severity {
                for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                    let valuePath = path.appending("severity").appending(name)
                    guard case .string(let text) = value, let code = SyslogCodes.severities[text] else {
                        d.report(valuePath, .invalidValue("must be one of: \(SyslogCodes.severities.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", "))"))
                        continue
                    }
                    if name == "default" { output.defaultSeverity = code } else { output.severities[name] = code }
                }
            } else {
                r.report("severity", .wrongType(expected: "an object (category → severity)", found: severity.typeName))
            }
        }
        (output.batchMaxRecords, output.batchMaxMs, output.bufferMaxRecords, output.shutdownTimeoutMs) =
            decodeDeliveryLimits(r, maxBatch: 100_000, defaults: (output.batchMaxRecords, output.batchMaxMs, output.bufferMaxRecords, output.shutdownTimeoutMs))
        return Output(destination: .syslog(output), format: .text, whereCondition: condition)
    }

    typealias DeliveryLimits = (batchMaxRecords: Int, batchMaxMs: Int, bufferMaxRecords: Int, shutdownTimeoutMs: Int)

    /// The batching and buffering keys every network output has, checked alike; the buffer defaults to at
    /// least two batches, and a buffer given without a batch size gets batches of at most half of it.
    static func decodeDeliveryLimits(_ r: ObjectReader, maxBatch: Int, defaults: DeliveryLimits) -> DeliveryLimits {
        let buffer = r.integer("bufferMaxRecords", in: 1...10_000_000)
        let batch = r.integer("batchMaxRecords", in: 1...maxBatch) ?? min(defaults.batchMaxRecords, max(1, (buffer ?? .max) / 2))
        let limits = (batchMaxRecords: batch,
                      batchMaxMs: r.integer("batchMaxMs", in: 1...600_000) ?? defaults.batchMaxMs,
                      bufferMaxRecords: buffer ?? max(defaults.bufferMaxRecords, 2 * batch),
                      shutdownTimeoutMs: r.integer("shutdownTimeoutMs", in: 0...600_000) ?? defaults.shutdownTimeoutMs)
        if limits.bufferMaxRecords < batch {
            r.report("bufferMaxRecords", .invalidValue("must be at least batchMaxRecords (\(batch))"))
        }
        return limits
    }
}
