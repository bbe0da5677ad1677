/// Who gets into `/api`: the bearer token, or the session cookie set by visiting `/?token=TOKEN`. A request
/// that changes something (POST) needs the bearer header, so another site cannot drive it through the
/// browser's cookie. Tokens are compared in constant time.
struct TokenGate: Sendable {
    enum Verdict: Equatable {
        case allowed
        /// No token or a wrong one: 401.
        case unauthorized
        /// A cookie alone on a request that changes state: 403.
        case forbidden
    }

    static let cookieName = "spytail_session"
    let token: String

    func check(authorization: String?, cookie: String?, changesState: Bool) -> Verdict {
        if let authorization, authorization.hasPrefix("Bearer "),
           Self.constantTimeEqual(String(authorization.dropFirst("Bearer ".count)), token) {
            return .allowed
        }
        if let cookie, Self.constantTimeEqual(cookie, token) {
            return changesState ? .forbidden : .allowed
        }
        return .unauthorized
    }

    /// Equal strings, in a time that depends on the length of `given` only.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt(bitPattern: a.count ^ b.count)
        for i in 0..<a.count { difference |= UInt(a[i] ^ (b.isEmpty ? 0 : b[i % b.count])) }
        return difference == 0 && !b.isEmpty
    }
}
