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
        let (address, running) = try HTTPServing.start(makeRouter(), listen: settings.listen, headerTimeout: settings.headerTimeout)
        task.withLock { $0 = running }
        return address
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

}

/// The HTTP face could not listen where the config says.
public struct HTTPFaceError: Error, Sendable, CustomStringConvertible {
    public let address: ListenAddress
    public let reason: String
    public var description: String { "http.listen: cannot listen on \(address): \(reason)" }
}
