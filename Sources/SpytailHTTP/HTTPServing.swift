import Hummingbird
import Logging
import NIOCore
import SpytailCore
import SpytailIO

/// Starts a Hummingbird server on a router: shared by `run`'s face and `explore`'s.
enum HTTPServing {
    /// Binds `listen` and serves `router` until the returned task is cancelled; returns the address bound (port
    /// 0 gives the kernel's choice). An address that cannot be bound is an error naming it and the reason.
    static func start(_ router: Router<BasicRequestContext>, listen: ListenAddress,
                      headerTimeout: Duration) throws(HTTPFaceError) -> (ListenAddress, Task<Void, Never>) {
        let started = BlockingQueue<Result<Int, HTTPFaceError>>()
        var logger = Logger(label: "spytail.http")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(headerTimeout.components.seconds))),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "spytail"),
            onServerRunning: { channel in started.push(.success(channel.localAddress?.port ?? listen.port)) },
            logger: logger)
        let running = Task {
            do {
                try await app.runService(gracefulShutdownSignals: [])  // the command owns SIGTERM and SIGINT
            } catch {
                started.push(.failure(HTTPFaceError(address: listen, reason: describe(error))))
            }
        }
        guard case .some(.some(let result)) = started.pop(timeout: .seconds(30)) else {
            running.cancel()
            throw HTTPFaceError(address: listen, reason: "the server did not start within 30 s")
        }
        switch result {
        case .success(let port): return (ListenAddress(host: listen.host, port: port), running)
        case .failure(let error):
            running.cancel()
            throw error
        }
    }

    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") || text.contains("EADDRINUSE") { return "address already in use" }
        if text.contains("Cannot assign requested address") || text.contains("EADDRNOTAVAIL") { return "no such local address" }
        if text.contains("Permission denied") || text.contains("EACCES") { return "permission denied (ports below 1024 need privileges)" }
        return text
    }
}
