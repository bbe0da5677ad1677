import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import SpytailCore

/// Batches into ClickHouse over its HTTP interface with AsyncHTTPClient (keep-alive connections): the
/// table is created first when asked, then each batch is one `INSERT … FORMAT TabSeparated` (or JSONEachRow), acknowledged
/// by HTTP 200. A 4xx is a refusal (a wrong table, column or password), with the server's own text.
/// An `https://` url is verified against the system's trust store plus the authorities of `caFile`.
final class ClickHouseTransport: BatchTransport {
    let settings: ClickHouseOutput
    let endpoint: HTTPEndpoint
    private let password: String?
    private let client: HTTPClient
    private var tableReady: Bool

    /// `trusted`: the certificates read from `caFile`, trusted besides the system's store.
    init(settings: ClickHouseOutput, endpoint: HTTPEndpoint, password: String?, trusted: [NIOSSLCertificate] = []) {
        self.settings = settings
        self.endpoint = endpoint
        self.password = password
        tableReady = !settings.createTable
        var tls = TLSConfiguration.makeClientConfiguration()
        if !trusted.isEmpty { tls.additionalTrustRoots = [.certificates(trusted)] }
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
            tlsConfiguration: tls,
            timeout: .init(connect: .seconds(5), read: .seconds(60)),
            connectionPool: .init(idleTimeout: .seconds(60))))
    }

    var name: String { settings.name }
    var needsPreparation: Bool { !tableReady }

    func prepare() -> DeliveryOutcome {
        let outcome = post(query: ClickHouseTable.createStatement(database: settings.database, table: settings.table), body: [])
        if outcome == .accepted { tableReady = true }
        return outcome
    }

    func send(_ batch: RecordBuffer.Batch) -> DeliveryOutcome {
        post(query: ClickHouseTable.insertStatement(database: settings.database, table: settings.table, format: settings.insertFormat),
             body: batch.bytes)
    }

    func reset() {}  // the client's pool replaces broken connections by itself

    func close() { try? client.syncShutdown() }

    private func post(query: String, body: [UInt8]) -> DeliveryOutcome {
        var headers = HTTPHeaders()
        headers.add(name: "X-ClickHouse-User", value: settings.user)
        if let password { headers.add(name: "X-ClickHouse-Key", value: password) }
        headers.add(name: "Content-Type", value: settings.insertFormat == .jsonEachRow ? "application/x-ndjson" : "text/tab-separated-values")
        let url = "\(endpoint)/?query=\(Self.percentEncoded(query))"
        do {
            let request = try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .bytes(body))
            let response = try client.execute(request: request, deadline: .now() + .seconds(120)).wait()
            let status = response.status.code
            if status == 200 { return .accepted }
            let text = response.body.map { String(buffer: $0) }?.trimmingWhitespace() ?? ""
            return .failed(.status(code: Int(status), text: text))
        } catch {
            return .failed(.connection(Self.describe(error)))
        }
    }

    /// The client's error, with a hint where an operator's next step is not obvious from it.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return text + " (the server's certificate is not signed by an authority of the system's store or of caFile)"
        }
        return text
    }

    /// A query string for the URL: everything but unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(out)
    }
}
