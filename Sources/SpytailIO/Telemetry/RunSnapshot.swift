import SpytailCore

/// What `run` looks like at the end of its last batch: the figures behind `/metrics`, `/readyz` and
/// `/api/info`. Counters are totals since start (they never go back, also across reloads).
public struct RunSnapshot: Sendable {
    /// One file `run` holds, for the files table.
    public struct FileRow: Sendable, Equatable {
        public var path: String
        public var offset: Int64
        public var size: Int64
        /// What the file holds past what was exported.
        public var behind: Int64 { max(0, size - offset) }
        /// following, draining, retired, parked.
        public var status: String
        public init(path: String, offset: Int64, size: Int64, status: String) {
            self.path = path
            self.offset = offset
            self.size = size
            self.status = status
        }
    }

    public var state: SpyState = .recording
    /// Start-up reconcile done (the first batch can be served).
    public var started = false
    /// Why reading is paused on an output, if it is (disk full …).
    public var stalledOn: String?
    public var linesRead: [String: Int] = [:]
    public var bytesRead: [String: Int64] = [:]
    public var entriesByCategory: [String: Int] = [:]
    /// Lines that did not parse in their source's format, by source name.
    public var parseErrorsBySource: [String: Int] = [:]
    public var excludedByFilter: [Int] = []
    public var writtenByOutput: [Int] = []
    public var outputNames: [String] = []
    /// For each output acknowledged later (network outputs; nil for the others): records taken, acknowledged.
    public var deliveryByOutput: [(taken: UInt64, acknowledged: UInt64)?] = []
    public var problems = 0
    public var filesOpen = 0
    public var watches = 0
    public var files: [FileRow] = []
    /// CLOCK_MONOTONIC seconds of the last checkpoint save (nil: none yet).
    public var checkpointSavedAt: Double?
    public var configPath = ""

    public init() {}

    public var bytesBehind: Int64 { files.filter { $0.status == "following" }.reduce(0) { $0 + $1.behind } }
}
