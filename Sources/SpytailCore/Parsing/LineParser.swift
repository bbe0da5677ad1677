/// One parser, compiled: how a source's head line becomes message, timestamp and fields, and how its
/// lines are cut (multiline rule, line limit). Formats: `regex` (named groups, some typed), `json` (one
/// object per line, typed values kept as written), `logfmt`, `text` (the line is the message).
///
/// A line that does not parse in a `json` or `logfmt` source keeps the whole line as its message and
/// carries `parseError`; a regex source's line that the pattern does not match is its own message, as
/// the top-level `parse` always did. A class: the JSON scanner and the decode buffer are reused, so a
/// parser is used from one thread at a time (each scan worker compiles the config again).
public final class LineParser {
    public enum Format {
        case regex(LinePattern)
        case json
        case logfmt
        case text
        /// A container runtime's log (`cri`, `docker`): the joiner rebuilt the application's line; `inner`
        /// parses its text (nil: the text is the message), the envelope gives the `stream` field, Docker's
        /// `attrs`, and the timestamp when the inner parser finds none.
        case container(ContainerFormat, inner: LineParser?)
    }

    public let name: String
    public let format: Format
    /// The regex format's pattern, held apart from `format` so that a line reads it in place.
    let pattern: LinePattern?
    public let timestampFormat: TimestampFormat
    /// Candidate paths, first found wins (json/logfmt).
    let timestampKeys: FieldPathList
    let messageKeys: FieldPathList
    /// Typed regex groups (vocabulary index → type) and typed logfmt keys (name → type).
    let groupTypes: [(field: Int, type: SpytailConfig.Parser.FieldType)]
    let keyTypes: [(key: [UInt8], type: SpytailConfig.Parser.FieldType)]
    public let continuation: Regex?
    public let maxLineBytes: Int
    public let idleTimeoutMs: Int

    @exclusivity(unchecked) private var scanner = JSONLineScanner()
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var pairs: [LogfmtScanner.Pair] = []

    /// Keys the common JSON writers use when the parser names none: Python's json formatters, logback and
    /// log4j2 JSON layouts, Go's slog and zap, pino, bunyan, structlog, GELF.
    public static let jsonTimestampKeys = ["timestamp", "time", "ts", "@timestamp", "asctime", "datetime", "t"]
    public static let jsonMessageKeys = ["message", "msg", "@message", "event", "short_message"]
    /// logfmt writers (Go's logfmt, Heroku, slog's text handler): `time=… msg=…`.
    public static let logfmtTimestampKeys = ["time", "ts", "t", "timestamp"]
    public static let logfmtMessageKeys = ["msg", "message"]

    /// `format` without what it holds, for the per-line dispatch: switching over `format` copied its payload
    /// (a retain and a release of the inner parser per line). The inner parser is kept by `format`.
    private enum Kind {
        case text, regex, json, logfmt
        case container(Unmanaged<LineParser>?)
    }
    private let kind: Kind

    public init(name: String, format: Format, timestampFormat: TimestampFormat, timestampKeys: [FieldPath] = [],
                messageKeys: [FieldPath] = [], groupTypes: [(field: Int, type: SpytailConfig.Parser.FieldType)] = [],
                keyTypes: [(key: [UInt8], type: SpytailConfig.Parser.FieldType)] = [],
                continuation: Regex? = nil, maxLineBytes: Int = 1 << 20, idleTimeoutMs: Int = 1000) {
        self.name = name
        self.format = format
        switch format {
        case .text: kind = .text
        case .regex: kind = .regex
        case .json: kind = .json
        case .logfmt: kind = .logfmt
        case .container(_, let inner): kind = .container(inner.map { .passUnretained($0) })
        }
        if case .regex(let pattern) = format { self.pattern = pattern } else { self.pattern = nil }
        self.timestampFormat = timestampFormat
        self.timestampKeys = FieldPathList(timestampKeys)
        self.messageKeys = FieldPathList(messageKeys)
        self.groupTypes = groupTypes
        self.keyTypes = keyTypes
        self.continuation = continuation
        self.maxLineBytes = maxLineBytes
        self.idleTimeoutMs = idleTimeoutMs
    }

    /// The keys of the fields this parser's entries may carry besides its regex groups; nil: any key (read
    /// from the lines: json, logfmt, or a container parser with such an inner parser).
    public var keyedNames: Set<String>? {
        switch format {
        case .json, .logfmt: return nil
        case .regex, .text: return []
        case .container(_, let inner):
            guard let names = inner.map({ $0.keyedNames }) ?? [] else { return nil }
            return names.union(["stream", "attrs"])
        }
    }

    /// The container runtime whose log this parser reads, if any.
    public var container: ContainerFormat? {
        if case .container(let format, _) = format { return format }
        return nil
    }

    /// How an entry's timestamp reads: the envelope's RFC 3339 time, or the format of the parser that found it.
    public func timestampFormat(of entry: borrowing SpyEntry) -> TimestampFormat {
        guard case .container(_, let inner) = format else { return timestampFormat }
        if let start = entry.envelopeStart, let timestamp = entry.timestamp, timestamp.lowerBound >= start { return .iso8601 }
        return inner?.timestampFormat ?? .iso8601
    }

    /// Fills message, timestamp, fields and `parseError` of `entry` (whose `text` and `headLength` are set).
    public func parse(_ entry: inout SpyEntry) {
        entry.resetParse()
        switch kind {
        case .text:
            plain(&entry)
        case .regex:
            if pattern?.apply(to: &entry) == true { if !groupTypes.isEmpty { applyGroupTypes(&entry) } } else { plain(&entry) }
        case .json:
            parseJSON(&entry)
        case .logfmt:
            parseLogfmt(&entry)
        case .container(let inner):
            parseContainer(&entry, inner)
        }
    }

    // MARK: container runtimes

    private func parseContainer(_ entry: inout SpyEntry, _ inner: Unmanaged<LineParser>?) {
        if let problem = entry.envelopeProblem { return refuse(&entry, problem) }
        guard let start = entry.envelopeStart else { return plain(&entry) }
        let envelope = entry.text.withUnsafeBufferPointer { ContainerEnvelope.read($0, from: start, to: $0.count) }
        if let inner { inner._withUnsafeGuaranteedRef { $0.parse(&entry) } } else { plain(&entry) }
        entry.fields.append(envelope.stream)
        if let attrs = envelope.attrs { entry.fields.append(attrs) }
        if entry.timestamp == nil { entry.timestamp = envelope.time }
    }

    private func plain(_ entry: inout SpyEntry) {
        entry.timestamp = nil
        entry.message = 0..<entry.headLength
        entry.fields.removeAll(keepingCapacity: true)
    }

    private func refuse(_ entry: inout SpyEntry, _ problem: ParseProblem) {
        plain(&entry)
        entry.parseError = entry.truncated ? ParseProblem(problem.format, .truncated, at: entry.headLength) : problem
    }

    // MARK: JSON

    private func parseJSON(_ entry: inout SpyEntry) {
        var fields: [FieldValue] = []
        swap(&fields, &entry.fields)
        let head = entry.headLength
        let problem: ParseProblem? = entry.text.withUnsafeBufferPointer { text in
            guard head > 0, let base = text.baseAddress else { return ParseProblem(.json, .unexpectedEnd, at: 0) }
            do throws(ParseProblem) {
                try scanner.scanObject(base, head, into: &fields)
                return nil
            } catch {
                return error
            }
        }
        swap(&fields, &entry.fields)
        if let problem { return refuse(&entry, problem) }
        takeMessageAndTimestamp(&entry)
    }

    // MARK: logfmt

    private func parseLogfmt(_ entry: inout SpyEntry) {
        pairs.removeAll(keepingCapacity: true)
        let head = entry.headLength
        let problem: ParseProblem? = entry.text.withUnsafeBufferPointer { text in
            guard head > 0, let base = text.baseAddress else { return ParseProblem(.logfmt, .noPairs, at: 0) }
            do throws(ParseProblem) {
                try LogfmtScanner.scan(base, head) { pairs.append($0) }
                return nil
            } catch {
                return error
            }
        }
        if let problem { return refuse(&entry, problem) }
        for pair in pairs {
            var range = pair.value
            if pair.escaped {
                scratch.removeAll(keepingCapacity: true)
                entry.text.withUnsafeBufferPointer { JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: $0[pair.value]), into: &scratch) }
                range = scratch.withUnsafeBufferPointer { entry.appendDecoded($0) }
            }
            entry.fields.append(FieldValue(textKey: pair.key, range: range, kind: pair.kind))
        }
        if !keyTypes.isEmpty { applyKeyTypes(&entry) }
        takeMessageAndTimestamp(&entry)
    }

    // MARK: message and timestamp of keyed lines

    private func takeMessageAndTimestamp(_ entry: inout SpyEntry) {
        entry.message = 0..<0
        entry.timestamp = nil
        if let message = take(messageKeys, from: &entry) { entry.message = textRange(of: message, in: &entry) }
        if let timestamp = take(timestampKeys, from: &entry) { entry.timestamp = textRange(of: timestamp, in: &entry) }
    }

    /// The value of the first of `paths` that the entry has; a top-level one is removed from the fields.
    private func take(_ paths: FieldPathList, from entry: inout SpyEntry) -> FieldValue? {
        guard !paths.isEmpty else { return nil }
        let found = entry.text.withUnsafeBufferPointer { text in
            entry.fields.withUnsafeBufferPointer { paths.first(in: $0, text: text) }
        }
        guard let found else { return nil }
        if let index = found.index { return entry.fields.remove(at: index) }
        return found.value
    }

    /// Where the value reads as text: a string's content (decoded after the lines when it holds escapes),
    /// anything else as written.
    private func textRange(of value: FieldValue, in entry: inout SpyEntry) -> Range<Int> {
        guard value.kind == .string, value.escaped else { return value.range }
        scratch.removeAll(keepingCapacity: true)
        entry.text.withUnsafeBufferPointer { JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: $0[value.range]), into: &scratch) }
        return scratch.withUnsafeBufferPointer { entry.appendDecoded($0) }
    }

    // MARK: types

    private func applyGroupTypes(_ entry: inout SpyEntry) {
        for (field, type) in groupTypes {
            guard let index = entry.fields.firstIndex(where: { $0.name == field }) else { continue }
            retype(&entry, index, type)
        }
    }

    private func applyKeyTypes(_ entry: inout SpyEntry) {
        for index in entry.fields.indices {
            let typed: SpytailConfig.Parser.FieldType? = entry.text.withUnsafeBufferPointer { text in
                keyTypes.first { key, _ in key.withUnsafeBufferPointer { JSONWalker.keyEquals(entry.fields[index], $0, in: text) } }?.type
            }
            if let typed { retype(&entry, index, typed) }
        }
    }

    /// Gives a text field its type when its text reads as one (else it stays text): integers and numbers
    /// that are not in JSON's form (`007`, `+3`, `.5`) are written out again in it, after the lines.
    private func retype(_ entry: inout SpyEntry, _ index: Int, _ type: SpytailConfig.Parser.FieldType) {
        let field = entry.fields[index]
        guard field.kind == .text else { return }
        let (kind, canonical): (FieldValue.Kind?, [UInt8]?) = entry.text.withUnsafeBufferPointer { text in
            let raw = UnsafeBufferPointer(rebasing: text[field.range])
            switch type {
            case .string: return (nil, nil)
            case .boolean:
                if raw.elementsEqual("true".utf8) || raw.elementsEqual("True".utf8) || raw.elementsEqual("TRUE".utf8) { return (.true, Array("true".utf8)) }
                if raw.elementsEqual("false".utf8) || raw.elementsEqual("False".utf8) || raw.elementsEqual("FALSE".utf8) { return (.false, Array("false".utf8)) }
                return (nil, nil)
            case .integer:
                guard let value = NumberText.double(raw), value == value.rounded(), abs(value) < 9.2e18,
                      !raw.contains(UInt8(ascii: ".")), !raw.contains(UInt8(ascii: "e")), !raw.contains(UInt8(ascii: "E")) else { return (nil, nil) }
                return JSONLineScanner.isNumber(raw) ? (.number, nil) : (.number, Array(String(Int64(value)).utf8))
            case .number:
                guard let value = NumberText.double(raw), value.isFinite else { return (nil, nil) }
                return JSONLineScanner.isNumber(raw) ? (.number, nil) : (.number, Array(value.description.utf8))
            }
        }
        guard let kind else { return }
        entry.fields[index].kind = kind
        if let canonical {
            entry.fields[index].range = canonical.withUnsafeBufferPointer { entry.appendDecoded($0) }
        }
    }
}
