import HTTPTypes
import Hummingbird

/// Who may read and change the run: the bearer token, the session cookie the dashboard's page sets from
/// `/?token=`, and the answers to those without (`TokenGate` decides).
extension HTTPFace {
    func gate(_ request: Request, changesState: Bool = false, _ body: () async throws -> Response) async throws -> Response {
        try await Self.gate(request, token: settings.token, changesState: changesState, body)
    }

    /// Answers `request` with `body` when it carries `token` (bearer, or the cookie for what changes nothing).
    static func gate(_ request: Request, token: String, changesState: Bool = false,
                     _ body: () async throws -> Response) async throws -> Response {
        let verdict = TokenGate(token: token).check(authorization: request.headers[.authorization],
                                                    cookie: request.cookies[TokenGate.cookieName]?.value, changesState: changesState)
        switch verdict {
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
    func index(_ request: Request) -> Response { Self.page(request, token: settings.token) }

    static func page(_ request: Request, token: String) -> Response {
        if let given = request.uri.queryParameters["token"] {
            guard TokenGate.constantTimeEqual(String(given), token) else {
                // The page, answered 401: it shows the login form saying the token was refused (not raw JSON).
                var refused = asset(DashboardAssets.page)
                refused.status = .unauthorized
                return refused
            }
            var response = Response(status: .seeOther)
            let rest = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") }
            response.headers[.location] = rest.isEmpty ? "/" : "/?" + rest.joined(separator: "&")
            response.headers[.setCookie] = "\(TokenGate.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return response
        }
        return asset(DashboardAssets.page)
    }

    /// `/api/session`: the bearer token, for the dashboard's own POSTs (state, reload). Reachable with the session
    /// cookie, which only this origin's pages send (SameSite=Strict), and readable only by them (no CORS).
    func session() -> Response { Self.session(token: settings.token) }

    static func session(token: String) -> Response {
        var body = JSONText()
        body.object { o in o.field("token", token) }
        return json(.ok, body)
    }
}
