import HTTPTypes
import Hummingbird
import SpytailCore
import SpytailIO

/// `explore`'s HTTP server: the dashboard's page (history mode) and the history API, token-guarded as `run`'s.
/// Open: `/healthz`, `/readyz` (200 once the index is built), the page and its assets. Token: `/api/*`.
/// Until the index is built, the API answers 503 with the progress.
public final class ExploreFace: Sendable {
    let token: String
    let listen: ListenAddress
    private let explorer = Locked<Explorer?>(nil)
    private let progress = Locked("starting")
    private let task = Locked<Task<Void, Never>?>(nil)
    /// Most entries one page may ask for.
    public static let maxPage = 5000

    public init(listen: ListenAddress, token: String) {
        self.listen = listen
        self.token = token
    }

    public func start() throws(HTTPFaceError) -> ListenAddress {
        let (address, running) = try HTTPServing.start(makeRouter(), listen: listen, headerTimeout: .seconds(10))
        task.withLock { $0 = running }
        return address
    }

    public func stop() { task.withLock { $0 }?.cancel() }

    /// What `/readyz` says while indexing.
    public func report(progress text: String) { progress.withLock { $0 = text } }

    /// The index is built: the view can be browsed.
    public func serve(_ explorer: Explorer) { self.explorer.withLock { $0 = explorer } }

    var current: Explorer? { explorer.withLock { $0 } }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/healthz") { _, _ in HTTPFace.text(.ok, "ok\n") }
        router.get("/readyz") { _, _ in
            self.current == nil ? HTTPFace.text(.serviceUnavailable, "indexing: \(self.progress.withLock { $0 })\n") : HTTPFace.text(.ok, "ready\n")
        }
        router.get("/") { request, _ in HTTPFace.page(request, token: self.token) }
        for asset in DashboardAssets.files {
            router.get(RouterPath(asset.path)) { _, _ in HTTPFace.asset(asset) }
        }
        router.get("/api/session") { request, _ in try await HTTPFace.gate(request, token: self.token) { HTTPFace.session(token: self.token) } }
        let routes: [(String, @Sendable (Explorer, Request) throws -> Response)] = [
            ("/api/info", { explorer, _ in Self.info(explorer) }),
            ("/api/entries", Self.entries),
            ("/api/count", Self.count),
            ("/api/histogram", Self.histogram),
            ("/api/facets", Self.facets),
            ("/api/context", Self.context),
            ("/api/download", Self.download),
        ]
        for (path, answer) in routes {
            router.get(RouterPath(path)) { request, _ in
                try await HTTPFace.gate(request, token: self.token) {
                    guard let explorer = self.current else {
                        return HTTPFace.json(.serviceUnavailable, #"{"error":"indexing","progress":"# + JSONText.quoted(self.progress.withLock { $0 }) + "}")
                    }
                    do {
                        return try answer(explorer, request)
                    } catch let error as ExploreError {
                        return HTTPFace.json(.badRequest, #"{"error":"# + JSONText.quoted(error.description) + "}")
                    }
                }
            }
        }
        return router
    }
}
