/// An `http://` or `https://` address with a host, an optional port and no path: where an output sends.
public struct HTTPEndpoint: Sendable, Equatable, CustomStringConvertible {
    public let secure: Bool
    public let host: String
    public let port: Int

    /// Nil when `text` is not such an address (no scheme, no host, a path, a query, credentials).
    public init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("http://") {
            secure = false
            rest = text.dropFirst(7)
        } else if text.hasPrefix("https://") {
            secure = true
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("?"), !authority.contains("@") else { return nil }
        var hostPart = authority
        var port = secure ? 443 : 80
        if authority.hasPrefix("[") {  // [::1]:8123
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()), (1...65535).contains(p) else { return nil }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else { return nil }
            port = p
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        self.port = port
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(secure ? "https" : "http")://\(shownHost):\(port)"
    }
}
