import Hummingbird

/// The fixed routes, and nothing else: what each path does lives beside its job (probes, access, the API, the
/// stream, responses). Open: `/metrics`, `/healthz`, `/readyz`, the dashboard's page at `/` (sets the session
/// cookie from `?token=`) and its `/assets/…` (none of them carries log content). Token: everything under `/api`.
extension HTTPFace {
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/metrics") { _, _ in
            let body = self.metrics.render(self.telemetry, viewers: self.viewers.count, viewerSkips: self.viewers.skipped)
            return Self.response(.ok, body, type: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/healthz") { _, _ in self.health() }
        router.get("/readyz") { _, _ in self.readiness() }
        router.get("/") { request, _ in self.index(request) }
        for asset in DashboardAssets.files {
            router.get(RouterPath(asset.path)) { _, _ in Self.asset(asset) }
        }
        router.get("/api/session") { request, _ in try await self.gate(request) { self.session() } }
        router.get("/api/info") { request, _ in try await self.gate(request) { self.info() } }
        router.get("/api/entries") { request, _ in try await self.gate(request) { try self.entries(request) } }
        router.get("/api/stream") { request, _ in try await self.gate(request) { try self.stream(request) } }
        router.post("/api/state") { request, _ in
            try await self.gate(request, changesState: true) { try await self.setState(request) }
        }
        router.post("/api/reload") { request, _ in
            try await self.gate(request, changesState: true) {
                self.telemetry.request(.reload)
                return Self.json(.accepted, #"{"reload":"requested"}"#)
            }
        }
        return router
    }
}
