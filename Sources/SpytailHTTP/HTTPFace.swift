import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SpytailCore
import SpytailIO

/// `run`'s HTTP server: `/metrics`, `/healthz`, `/readyz` (open) and `/api/*` (token), on Hummingbird. It
/// reads the run through `RunTelemetry` only and sends it `RunRequest`s; nothing here can make the run
/// loop wait. Bounded: request heads must arrive within `headerTimeout`, bodies are small, streams are
/// limited to `maxViewers`, and only the fixed routes exist (nothing is served from disk).
public final class HTTPFace: Sendable {
    public struct Settings: Sendable {
        public var listen: ListenAddress
        public var token: String
        public var maxViewers: Int
        public var headerTimeout: Duration = .seconds(10)
        /// `/healthz` fails when the loop has not turned over for this long.
        public var healthWindow: Double = 10

        public init(listen: ListenAddress, token: String, maxViewers: Int) {
            self.listen = listen
            self.token = token
            self.maxViewers = maxViewers
        }
    }

    private let current: Locked<Settings>
    var settings: Settings { current.withLock { $0 } }
    let telemetry: RunTelemetry
    let metrics = MetricsExposition()
    let viewers: ViewerRegistry
    private let task = Locked<Task<Void, Never>?>(nil)

    public init(settings: Settings, telemetry: RunTelemetry) {
        current = Locked(settings)
        self.telemetry = telemetry
        viewers = ViewerRegistry(limit: settings.maxViewers)
    }

    /// Binds and starts serving; returns the address bound (port 0 gives the kernel's choice). A listen
    /// address that cannot be bound is an error naming it and the reason.
    public func start() throws(HTTPFaceError) -> ListenAddress {
        let started = BlockingQueue<Result<Int, HTTPFaceError>>()
        let listen = settings.listen
        var logger = Logger(label: "spytail.http")
        logger.logLevel = .critical
        let app = Application(
            router: makeRouter(),
            server: .http1(configuration: .init(idleTimeout: .seconds(settings.headerTimeout.components.seconds))),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "spytail"),
            onServerRunning: { channel in started.push(.success(channel.localAddress?.port ?? listen.port)) },
            logger: logger)
        let running = Task {
            do {
                try await app.runService(gracefulShutdownSignals: [])  // the run loop owns SIGTERM and SIGINT
            } catch {
                started.push(.failure(HTTPFaceError(address: listen, reason: Self.describe(error))))
            }
        }
        task.withLock { $0 = running }
        guard case .some(.some(let result)) = started.pop(timeout: .seconds(30)) else {
            stop()
            throw HTTPFaceError(address: listen, reason: "the server did not start within 30 s")
        }
        switch result {
        case .success(let port): return ListenAddress(host: listen.host, port: port)
        case .failure(let error):
            stop()
            throw error
        }
    }

    /// A reload changed the token or the viewer limit: taken from the next request on.
    public func update(token: String, maxViewers: Int) {
        current.withLock { $0.token = token; $0.maxViewers = maxViewers }
        viewers.limit = maxViewers
    }

    /// Stops listening and ends every stream.
    public func stop() {
        viewers.closeAll(telemetry.recent)
        task.withLock { $0 }?.cancel()
    }

    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") || text.contains("EADDRINUSE") { return "address already in use" }
        if text.contains("Cannot assign requested address") || text.contains("EADDRNOTAVAIL") { return "no such local address" }
        if text.contains("Permission denied") || text.contains("EACCES") { return "permission denied (ports below 1024 need privileges)" }
        return text
    }
}

/// The HTTP face could not listen where the config says.
public struct HTTPFaceError: Error, Sendable, CustomStringConvertible {
    public let address: ListenAddress
    public let reason: String
    public var description: String { "http.listen: cannot listen on \(address): \(reason)" }
}
