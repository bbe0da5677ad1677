/// The table a `clickhouse` output writes: its DDL and the insert statement, for the server's HTTP interface.
///
/// `ReplacingMergeTree` ordered by the deterministic record id: a row delivered twice (spytail restarted
/// after a crash and read again from its last checkpoint) collapses into one when parts merge, and
/// `SELECT … FINAL` shows each line once before that. The column types work on ClickHouse 18.16 (Debian
/// 12's package: no DateTime64, no Map, no JSON type) and on current servers alike: `time` is whole
/// seconds (`Nullable(DateTime)`), `fields` is JSON text (`JSONExtractString(fields, 'user')` on ≥ 19.x,
/// `visitParamExtractString` on 18.x).
public enum ClickHouseTable {
    public static func createStatement(database: String, table: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(quoted(database)).\(quoted(table))
        (
            id String,
            timestamp Nullable(String),
            time Nullable(DateTime),
            category String,
            tags Array(String),
            message String,
            detail Nullable(String),
            fields String,
            path String,
            offset UInt64,
            host String
        )
        ENGINE = ReplacingMergeTree()
        ORDER BY id
        """
    }

    /// The columns spytail fills, in the order of the DDL and of the TabSeparated rows. Named in the insert,
    /// so a table with more columns (with defaults) takes the rows as well.
    public static let columns = ["id", "timestamp", "time", "category", "tags", "message", "detail", "fields", "path", "offset", "host"]

    public static func insertStatement(database: String, table: String, format: ClickHouseOutput.InsertFormat = .tabSeparated) -> String {
        "INSERT INTO \(quoted(database)).\(quoted(table)) (\(columns.joined(separator: ", "))) FORMAT \(format.rawValue)"
    }

    /// Database and table names the config accepts: they go into SQL without any other escaping.
    public static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        } && name.utf8.count <= 128
    }

    static func quoted(_ name: String) -> String { "`\(name)`" }
}
