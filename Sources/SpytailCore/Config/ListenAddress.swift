/// Where the HTTP face listens: `HOST:PORT` (`127.0.0.1:9880`, `0.0.0.0:9880`, `[::1]:9880`, `localhost:0`).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; the error says what is wrong in words fit for `http.listen: …`.
    public static func parse(_ text: String) -> Result<ListenAddress, ListenAddressError> {
        var host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ListenAddressError("'\(text)' is not HOST:PORT ([IPv6]:PORT for IPv6)"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                return .failure(ListenAddressError("'\(text)' is not HOST:PORT"))
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(ListenAddressError("'\(text)' has no host (0.0.0.0 for every interface)")) }
        guard let number = Int(port), port.allSatisfy(\.isASCII) else {
            return .failure(ListenAddressError("port '\(port)' is not a number"))
        }
        guard (0...65535).contains(number) else { return .failure(ListenAddressError("port \(number) is not between 0 and 65535")) }
        return .success(ListenAddress(host: String(host), port: number))
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

public struct ListenAddressError: Error, Sendable, Equatable {
    public let message: String
    init(_ message: String) { self.message = message }
}
