import SpytailCore

/// What a scan read and what went wrong, for the summary and the exit code.
public struct ScanReport: Sendable, Equatable {
    public var filesRead = 0
    public var linesRead = 0
    /// Decompressed bytes.
    public var bytesRead: Int64 = 0
    public var errors: [ReadError] = []

    public init() {}

    /// A file read to its end, or as far as it could be: counted, its failure kept and said, its end said.
    mutating func finished(_ path: String, lines: Int, bytes: Int64, failure: ReadError?, events: any EventReporter) {
        filesRead += 1
        linesRead += lines
        bytesRead += bytes
        if let failure {
            errors.append(failure)
            events.report(.readFailed(failure))
        }
        events.report(.fileFinished(path: path, lines: lines, bytes: bytes))
    }

    /// Opens `path` for reading and says it started; a failure is kept and said (nil then).
    mutating func open(_ path: String, events: any EventReporter) -> (any ByteSource)? {
        do {
            let source = try FileOpener.open(path)
            events.report(.fileStarted(path: path, compressed: source.isCompressed))
            return source
        } catch {
            errors.append(error)
            events.report(.readFailed(error))
            return nil
        }
    }
}
