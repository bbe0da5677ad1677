import HTTPTypes
import Hummingbird
import NIOCore
import SpytailCore
import SpytailIO

/// The fixed routes. Open: `/metrics`, `/healthz`, `/readyz`, the dashboard's page at `/` (sets the session cookie
/// from `?token=`), its `/assets/…` and its unit-test page `/test` (none of them carries log content).
/// Token: everything under `/api`.
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

    // MARK: probes

    func health() -> Response {
        let quiet = telemetry.secondsSinceBeat
        guard quiet <= settings.healthWindow else {
            return Self.text(.serviceUnavailable, "the run loop has not turned over for \(Int(quiet)) s\n")
        }
        return Self.text(.ok, "ok\n")
    }

    func readiness() -> Response {
        let readiness = telemetry.current.readiness
        return Self.text(readiness.isReady ? .ok : .serviceUnavailable, "\(readiness)\n")
    }

    // MARK: the token

    func verdict(_ request: Request, changesState: Bool) -> TokenGate.Verdict {
        TokenGate(token: settings.token).check(authorization: request.headers[.authorization],
                                                cookie: request.cookies[TokenGate.cookieName]?.value,
                                                changesState: changesState)
    }

    func gate(_ request: Request, changesState: Bool = false, _ body: () async throws -> Response) async throws -> Response {
        switch verdict(request, changesState: changesState) {
        case .allowed: return try await body()
        case .unauthorized: return Self.unauthorized()
        case .forbidden: return Self.forbidden()
        }
    }

    static func unauthorized() -> Response {
        var response = json(.unauthorized, #"{"error":"a token is needed: Authorization: Bearer TOKEN, or open /?token=TOKEN"}"#)
        response.headers[.wwwAuthenticate] = #"Bearer realm="spytail""#
        return response
    }

    static func forbidden() -> Response {
        json(.forbidden, #"{"error":"changing the run needs the Authorization: Bearer header (a cookie alone is refused)"}"#)
    }

    /// `/?token=TOKEN` sets the session cookie and sends the browser to `/` without the token in the URL (the
    /// view's other parameters kept); `/` itself is the dashboard, which asks for a token when it has none.
    func index(_ request: Request) -> Response {
        if let given = request.uri.queryParameters["token"] {
            guard TokenGate.constantTimeEqual(String(given), settings.token) else { return Self.unauthorized() }
            var response = Response(status: .seeOther)
            let rest = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") }
            response.headers[.location] = rest.isEmpty ? "/" : "/?" + rest.joined(separator: "&")
            response.headers[.setCookie] = "\(TokenGate.cookieName)=\(settings.token); Path=/; HttpOnly; SameSite=Strict"
            return response
        }
        return Self.asset(DashboardAssets.page)
    }

    /// `/api/session`: the bearer token, for the dashboard's own POSTs (state, reload). Reachable with the session
    /// cookie, which only this origin's pages send (SameSite=Strict), and readable only by them (no CORS).
    func session() -> Response {
        var json = JSONText()
        json.object { o in o.field("token", settings.token) }
        return Self.json(.ok, json)
    }

    // MARK: responses

    static func response(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String) -> Response {
        var response = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        response(status, Array(text.utf8), type: "text/plain; charset=utf-8")
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        response(status, Array(text.utf8), type: "application/json")
    }

    static func json(_ status: HTTPResponse.Status, _ json: JSONText) -> Response {
        response(status, json.bytes, type: "application/json")
    }

    /// The Content-Security-Policy of every dashboard file: scripts and styles from this origin only (no inline
    /// code, no eval), no plug-ins, no framing, connections to this origin only.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func asset(_ asset: DashboardAssets.Asset) -> Response {
        var response = self.response(.ok, asset.bytes, type: asset.type)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
