import SpytailCore

/// Batches of RFC 5424 messages (octet-counted frames from the `SyslogFormatter`) to a syslog server:
/// - `relp`: each batch sent as RELP frames and delivered once every frame got its `200 OK`;
/// - `tcp`: the frames as they are (RFC 6587 octet counting); delivered once the kernel took them — a
///   server killed before it read or wrote them loses what was in the socket buffers and its own queue;
/// - `udp`: one datagram per message (at most 65,000 bytes), delivered once sent: fire and forget.
/// A failure drops the connection; the batch is sent again on a new one (RELP, TCP: at least once).
final class SyslogTransport: BatchTransport {
    let settings: SyslogOutput
    private var connection: SocketConnection?
    private var relp: RELPSession?
    static let timeout: Duration = .seconds(30)
    static let maxDatagram = 65_000

    init(settings: SyslogOutput) { self.settings = settings }

    var name: String { settings.name }
    var needsPreparation: Bool { connection == nil }

    func prepare() -> DeliveryOutcome {
        do {
            let connection = try SocketConnection.connect(host: settings.host, port: settings.port, datagram: settings.transport == .udp,
                                                          timeout: Self.timeout)
            if settings.transport == .relp {
                let session = RELPSession(connection)
                try session.open()
                relp = session
            }
            self.connection = connection
            return .accepted
        } catch {
            return .failed(.connection(error.description))
        }
    }

    func send(_ batch: RecordBuffer.Batch) -> DeliveryOutcome {
        guard let connection else { return .failed(.connection("not connected")) }
        do {
            switch settings.transport {
            case .tcp:
                try connection.send(batch.bytes)
            case .udp:
                for message in Self.messages(in: batch.bytes) {
                    let datagram = message.prefix(Self.maxDatagram)
                    // Fire and forget: an error (an ICMP "port unreachable" from an earlier datagram) is not retried.
                    try? connection.send(Array(datagram))
                }
            case .relp:
                guard let relp else { return .failed(.connection("no RELP session")) }
                if let refusal = try relp.send(Self.messages(in: batch.bytes)) { return .failed(.refused(refusal)) }
            }
            return .accepted
        } catch {
            return .failed(.connection(error.description))
        }
    }

    func reset() {
        relp = nil
        connection?.close()
        connection = nil
    }

    func close() {
        relp?.close()
        reset()
    }

    /// The messages of octet-counted frames (`LEN SP MSG` …).
    static func messages(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var messages: [ArraySlice<UInt8>] = []
        var i = 0
        while i < bytes.count {
            var length = 0
            while i < bytes.count, bytes[i] != UInt8(ascii: " ") {
                length = length * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
            i += 1
            let end = min(bytes.count, i + length)
            messages.append(bytes[i..<end])
            i = end
        }
        return messages
    }
}
