/// A `clickhouse` output: where the rows go and how they are batched. Decoded from the config; the
/// password is read from `passwordFile` when the output opens, never kept in the config.
public struct ClickHouseOutput: BatchedDestination, Equatable {
    /// How the rows travel in the insert's body. Both fill the same columns with the same values;
    /// TabSeparated costs the server half the parsing (the default), JSONEachRow is readable in transit.
    public enum InsertFormat: String, Sendable, CaseIterable {
        case tabSeparated = "TabSeparated"
        case jsonEachRow = "JSONEachRow"
    }

    /// `http://host:port` or `https://host:port` (no path: the HTTP interface answers at `/`).
    public var url: String
    public var database = "default"
    public var table = "spytail_logs"
    public var user = "default"
    /// Relative to the config file's folder; its first line is the password.
    public var passwordFile: String?
    /// Relative to the config file's folder: PEM certificates of the authorities trusted for an `https://`
    /// url besides the system's store (a private CA, a self-signed server).
    public var caFile: String?
    /// `CREATE TABLE IF NOT EXISTS` when the output opens (the DDL `spytail check --print-ddl` prints).
    public var createTable = false
    public var insertFormat = InsertFormat.tabSeparated
    /// A batch is sent when it holds this many records… (ClickHouse merges every insert's part with the
    /// others: on 18.16, W1 in inserts of 10,000 rows cost the server 3× the CPU of inserts of 50,000.)
    public var batchMaxRecords = 50_000
    /// …or this long after its first record came in.
    public var batchMaxMs = 1_000
    /// Records taken but not yet acknowledged, at most; beyond it reading pauses (back-pressure).
    public var bufferMaxRecords = 100_000
    /// How long a stop waits for the last batches to be acknowledged.
    public var shutdownTimeoutMs = 10_000

    public init(url: String) { self.url = url }

    /// What messages call this output: `clickhouse http://host:8123 default.spytail_logs`.
    public var name: String { "clickhouse \(url) \(database).\(table)" }
}
