import HTTPTypes
import Hummingbird

/// Who may read and change the run: the bearer token, the session cookie the dashboard's page sets from
/// `/?token=`, and the answers to those without (`TokenGate` decides).
extension HTTPFace {
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
}
