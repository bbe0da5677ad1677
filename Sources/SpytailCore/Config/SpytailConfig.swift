/// A spytail config as written in JSON, decoded and type-checked (see `SpytailConfig+Decoding`).
/// Cross-field checks and regex compilation happen in `CompiledConfig`.
public struct SpytailConfig: Sendable, Equatable {
    public var sources: [Source] = []
    /// Path of the checkpoint file (`run`), relative to the config file's folder.
    public var checkpoints: String?
    public var parse = Parse()
    /// Named parsers (`parsers` in JSON, an object keyed by name), in name order; a source picks one by name.
    public var parsers: [Parser] = []
    public var integrations: [Integration] = []
    public var filters: [Condition] = []
    public var outputs: [Output] = [Output(destination: .stdout, format: .text)]
    public var state: SpyState = .recording
    public var tail = Tail()
    /// `run`'s HTTP face (metrics, probes, the API and the dashboard); off when absent.
    public var http: HTTP?

    public init() {}

    /// `run`'s HTTP server.
    public struct HTTP: Sendable, Equatable {
        public var listen: ListenAddress
        /// A file holding the API token (relative to the config's folder); without it a random token is made
        /// at each start and printed on stderr with the dashboard's URL.
        public var tokenFile: String?
        /// Entries kept for `/api/entries` and for viewers that fall behind.
        public var recentEntries = 5000
        /// `/api/stream` connections at once; the next one gets 503.
        public var maxViewers = 16
        public init(listen: ListenAddress) { self.listen = listen }
    }

    /// How `run` follows files.
    public struct Tail: Sendable, Equatable {
        /// At most this many files are held open; the least recently active are closed and reopened on
        /// their next event.
        public var maxOpenFiles = 1024
        /// A rotated-away file is kept open and read this long after its last write (writers that have not
        /// reopened yet), unless it is deleted first.
        public var rotateWaitMs = 5000
        /// Checkpoints are saved after every batch (`….recent`); at most this often (and at exit) the file outputs
        /// are synced and the checkpoint file made durable.
        public var syncIntervalMs = 1000
        public init() {}
    }

    /// Where to find log files.
    public struct Source: Sendable, Equatable {
        public enum StartAt: String, Sendable, CaseIterable { case beginning, end }
        public var name: String
        /// Glob patterns (`*`, `?`, `[...]`, `**` for any depth), relative to the config file's folder.
        public var include: [String]
        /// Patterns of files to skip: matched against the file name, or the whole path if they hold a `/`.
        public var exclude: [String] = []
        /// Also read the rotated chain (`app.log.1`, `app.log.2.gz`, `app.log-20261120.gz` …), oldest first.
        public var rotated = true
        /// Where to start in a file never seen before (`run`).
        public var startAt = StartAt.beginning
        /// Read files reached through a symlink that points outside the pattern's folder.
        public var followSymlinks = false
        /// Where rotated copies are moved (logrotate's `olddir`): absolute, or relative to the live file's folder.
        public var olddir: String?
        /// A regex for rotated names that do not start with the live name (logback, log4j2), matched against a
        /// whole file name without its `.gz`; named groups `date` and `index` order the chain.
        public var rotatedPattern: String?
        /// The name of the parser for this source's lines; nil: the top-level `parse`.
        public var parser: String?
        /// A regex with named groups matched against each file's path: the groups become fields of every
        /// entry of the file, inside an object named `pathFieldsKey` (`k8s.namespace`).
        public var pathFields: String?
        public var pathFieldsKey = "path"

        public init(name: String, include: [String]) {
            self.name = name
            self.include = include
        }
    }

    /// How lines become entries.
    public struct Parse: Sendable, Equatable {
        public var pattern: String?
        public var timestampFormat = TimestampFormat.iso8601
        public var multiline: Multiline?
        public var maxLineBytes = 1 << 20
        public var categories: [Category] = [Category(name: "info", display: "ℹ️", isDefault: true)]
        public var tags: [Tag] = []
        public init() {}
    }

    /// Continuation lines join the entry before them.
    public struct Multiline: Sendable, Equatable {
        /// A regex that a continuation line matches (typically `^\s`).
        public var continuation: String
        /// `run` flushes an entry whose next line has not come after this long.
        public var idleTimeoutMs = 1000
        public init(continuation: String) { self.continuation = continuation }
    }

    /// A named parser: how one source's lines become entries.
    public struct Parser: Sendable, Equatable {
        public enum Format: String, Sendable, CaseIterable {
            case regex, json, logfmt, text, cri, docker

            /// The container runtime whose log this format reads.
            public var container: ContainerFormat? { ContainerFormat(rawValue: rawValue) }
        }
        /// What a typed regex group or logfmt value becomes.
        public enum FieldType: String, Sendable, CaseIterable { case string, integer, number, boolean }

        public var name: String
        public var format: Format
        /// `regex`: the pattern, with named groups as `parse.pattern`.
        public var pattern: String?
        /// `json`/`logfmt`: the field paths of the timestamp and the message; nil: the common writers' keys.
        public var timestampKey: String?
        public var messageKey: String?
        /// nil: `auto` for json and logfmt, `iso8601` for regex.
        public var timestampFormat: TimestampFormat?
        /// Field name → type, for regex groups and logfmt values (JSON values carry their own types).
        public var types: [String: FieldType] = [:]
        public var multiline: Multiline?
        /// nil: `parse.maxLineBytes`.
        public var maxLineBytes: Int?
        /// `cri`/`docker`: the parser of the text inside the envelope (nil: the text is the message).
        public var inner: String?

        public init(name: String, format: Format) {
            self.name = name
            self.format = format
        }
    }

    /// A category rule: the first whose match holds wins, else the default.
    public struct Category: Sendable, Equatable {
        public var name: String
        public var display: String
        public var color: String?
        public var match: Condition?
        public var isDefault = false
        public init(name: String, display: String, color: String? = nil, match: Condition? = nil, isDefault: Bool = false) {
            self.name = name
            self.display = display
            self.color = color
            self.match = match
            self.isDefault = isDefault
        }
    }

    /// A tag rule: every tag whose match holds is added.
    public struct Tag: Sendable, Equatable {
        public var name: String
        public var display: String
        public var match: Condition
        public init(name: String, display: String, match: Condition) {
            self.name = name
            self.display = display
            self.match = match
        }
    }

    /// An integration declares message prefixes a user may switch off as one filter.
    public struct Integration: Sendable, Equatable {
        public var name: String
        public var ignorablePrefixes: [String]
        public init(name: String, ignorablePrefixes: [String]) {
            self.name = name
            self.ignorablePrefixes = ignorablePrefixes
        }
    }

    /// A condition: SpyDashboard's filter modes (message `contains`/`prefix`, `tag`, `category`), an
    /// integration's prefixes, a message `regex`, a `source`, a test on a field, and `all`/`any`/`not` of
    /// conditions. A filter excludes what it matches; an output's `where` keeps what it matches; a category or
    /// tag rule's `match` is one too (without `tag` and `category`).
    public indirect enum Condition: Sendable, Equatable {
        case contains(String)
        case prefix(String)
        case regex(String)
        case tag(String)
        case category(String)
        case integration(String)
        case source(String)
        case field(String, FieldTest)
        case all([Condition])
        case any([Condition])
        case not(Condition)
    }

    /// What a `field` condition asks of the field's value.
    public enum FieldTest: Sendable, Equatable {
        /// A string, number, boolean or null; numbers compare by value.
        case equals(JSONValue)
        case oneOf([JSONValue])
        case contains(String)
        case prefix(String)
        case regex(String)
        /// The field is present (true) or absent (false); `null` counts as present.
        case exists(Bool)
        /// Numeric bounds, all of which must hold (`gt`, `gte`, `lt`, `lte`).
        case bounds(NumericBounds)
    }

    public struct NumericBounds: Sendable, Equatable {
        public var gt: Double?
        public var gte: Double?
        public var lt: Double?
        public var lte: Double?
        public init(gt: Double? = nil, gte: Double? = nil, lt: Double? = nil, lte: Double? = nil) {
            (self.gt, self.gte, self.lt, self.lte) = (gt, gte, lt, lte)
        }
        public func contains(_ x: Double) -> Bool {
            (gt.map { x > $0 } ?? true) && (gte.map { x >= $0 } ?? true) && (lt.map { x < $0 } ?? true) && (lte.map { x <= $0 } ?? true)
        }
    }

    /// One exported stream.
    public struct Output: Sendable, Equatable {
        public enum Destination: Sendable, Equatable {
            case stdout
            /// Relative to the config file's folder; the folder must exist.
            case file(String)
            /// Rows inserted into a ClickHouse table over HTTP (`run` only); the format is the table's.
            case clickhouse(ClickHouseOutput)
            /// RFC 5424 messages to a syslog server over RELP, TCP or UDP (`run` only).
            case syslog(SyslogOutput)

            /// The records carry the parsed time (ClickHouse's `time` column, the syslog timestamp).
            public var carriesParsedTime: Bool {
                switch self {
                case .stdout, .file: false
                case .clickhouse, .syslog: true
                }
            }

            /// For messages: `stdout`, the file's path, `clickhouse http://… db.table`, `syslog relp host:port`.
            public var name: String {
                switch self {
                case .stdout: "stdout"
                case .file(let path): path
                case .clickhouse(let settings): settings.name
                case .syslog(let settings): settings.name
                }
            }
        }
        public enum Format: String, Sendable, CaseIterable { case jsonl, text, logfmt }
        public enum Color: String, Sendable, CaseIterable { case auto, always, never }

        public var destination: Destination
        public var format: Format
        /// Only what this condition matches is written.
        public var whereCondition: Condition?
        public var color = Color.auto

        public init(destination: Destination, format: Format, whereCondition: Condition? = nil) {
            self.destination = destination
            self.format = format
            self.whereCondition = whereCondition
        }
    }
}
