import Glibc
import NIOSSL
import SpytailCore
import SpytailIO

/// Opens `run`'s network outputs for the I/O layer: a `clickhouse` output becomes a `BatchingOutput` over a
/// `ClickHouseTransport`, fed by the `ClickHouseJSONEachRowFormatter`, its password read from `passwordFile` (first line)
/// and the authorities it trusts besides the system's from `caFile`;
/// a `syslog` output a `BatchingOutput` over a `SyslogTransport`, fed by the `SyslogFormatter`.
public struct NetworkOutputOpener: RemoteOutputOpener {
    public init() {}

    public func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
        switch output.destination {
        case .clickhouse(let settings): try openClickHouse(settings, vocabulary: vocabulary, resolve: resolve)
        case .syslog(let settings): openSyslog(settings, vocabulary: vocabulary)
        case .stdout, .file: preconditionFailure("NetworkOutputOpener asked to open a local output")
        }
    }

    func openSyslog(_ settings: SyslogOutput, vocabulary: Vocabulary) -> OpenOutput {
        let limits = BatchingOutput.Limits(settings)
        let writer = BatchingOutput(name: settings.name, kind: "syslog", framing: .octetCounted, limits: limits) {
            SyslogTransport(settings: settings)
        }
        let formatter = SyslogFormatter(vocabulary: vocabulary, settings: settings,
                                        hostname: settings.hostname.isEmpty ? Self.hostName() : settings.hostname, now: Self.realTime)
        return OpenOutput(formatter: formatter, writer: writer, delivery: writer)
    }

    /// Nanoseconds since the epoch (the arrival time of entries without a timestamp).
    @Sendable static func realTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    func openClickHouse(_ settings: ClickHouseOutput, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
        let password = try settings.passwordFile.map { file throws(SinkError) in try Self.readPassword(resolve(file), for: settings) }
        let trusted = try settings.caFile.map { file throws(SinkError) in try Self.readAuthorities(resolve(file), for: settings) } ?? []
        guard let endpoint = HTTPEndpoint(settings.url) else {
            throw SinkError(destination: settings.name, cause: .unusable("not an http(s) address: \(settings.url)"))
        }
        let limits = BatchingOutput.Limits(settings)
        let writer = BatchingOutput(name: settings.name, kind: "clickhouse", framing: .newline, limits: limits) {
            ClickHouseTransport(settings: settings, endpoint: endpoint, password: password, trusted: trusted)
        }
        let formatter: any EntryFormatter = switch settings.insertFormat {
        case .tabSeparated: ClickHouseTabSeparatedFormatter(vocabulary: vocabulary, host: Self.hostName())
        case .jsonEachRow: ClickHouseJSONEachRowFormatter(vocabulary: vocabulary, host: Self.hostName())
        }
        return OpenOutput(formatter: formatter, writer: writer, delivery: writer)
    }

    /// The first line of the file, without surrounding blanks; an unreadable file names itself (the
    /// password never appears in a message).
    static func readPassword(_ path: String, for settings: ClickHouseOutput) throws(SinkError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.readAll(path)
        } catch {
            throw SinkError(destination: settings.name, cause: .unusable("cannot read passwordFile '\(path)': \(error.unreadable ?? "\(error)")"))
        }
        let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).first.map { Array($0) } ?? []
        return String(decoding: line, as: UTF8.self).trimmingWhitespace()
    }

    /// The PEM certificates of `caFile`; a file that cannot be read or holds none is named.
    static func readAuthorities(_ path: String, for settings: ClickHouseOutput) throws(SinkError) -> [NIOSSLCertificate] {
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.readAll(path)
        } catch {
            throw SinkError(destination: settings.name, cause: .unusable("cannot read caFile '\(path)': \(error.unreadable ?? "\(error)")"))
        }
        let certificates = (try? NIOSSLCertificate.fromPEMBytes(bytes)) ?? []
        guard !certificates.isEmpty else {
            throw SinkError(destination: settings.name, cause: .unusable("caFile '\(path)' holds no PEM certificate"))
        }
        return certificates
    }

    /// This machine's name, for the `host` column.
    static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "unknown" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
