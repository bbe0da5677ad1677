import SpytailCore

/// What a scan read and what went wrong, for the summary and the exit code.
public struct ScanReport: Sendable, Equatable {
    public var filesRead = 0
    public var linesRead = 0
    /// Decompressed bytes.
    public var bytesRead: Int64 = 0
    public var errors: [ReadError] = []

    public init() {}
}
