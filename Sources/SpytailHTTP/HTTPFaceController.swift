import SpytailCore
import SpytailIO

/// Keeps the HTTP face in step with the config: started at the start, and on a reload moved to a new
/// address (the new one is bound before the old one closes, so a reload that cannot bind is refused and the
/// running server stays), given a new token or viewer limit in place, started or stopped with the section.
public final class HTTPFaceController {
    let telemetry: RunTelemetry
    /// `--http ADDR`: wins over `http.listen`.
    let override: ListenAddress?
    private var face: HTTPFace?
    private var listen: ListenAddress?
    private var recentEntries: Int?
    /// Where the server listens now (the kernel's port when the config said 0).
    public private(set) var bound: ListenAddress?

    public init(telemetry: RunTelemetry, override: ListenAddress?) {
        self.telemetry = telemetry
        self.override = override
    }

    /// The section `file` asks for, with `--http` applied (a section with defaults when only `--http` is given).
    public func section(of file: ConfigFile) -> SpytailConfig.HTTP? {
        guard var http = file.config.http ?? override.map(SpytailConfig.HTTP.init) else { return nil }
        if let override { http.listen = override }
        return http
    }

    /// Brings the server in line with `file`; returns lines for stderr (where it listens, the URL with a
    /// made-up token). Throws a message when the config cannot be served: the caller exits 2 at start, or
    /// refuses the reload.
    public func apply(_ file: ConfigFile) throws(HTTPSetupError) -> [String] {
        guard let http = section(of: file) else {
            stop()
            return []
        }
        defer { telemetry.collectsEntries = face != nil }
        let token: String, origin: APIToken.Origin
        do {
            (token, origin) = try APIToken.load(file)
        } catch {
            throw HTTPSetupError(description: error.description)
        }
        var notes: [String] = []
        if let face, http.listen == listen {
            face.update(token: token, maxViewers: http.maxViewers)
        } else {
            let next = HTTPFace(settings: .init(listen: http.listen, token: token, maxViewers: http.maxViewers), telemetry: telemetry)
            let address: ListenAddress
            do {
                address = try next.start()
            } catch {
                throw HTTPSetupError(description: "\(file.path): \(error)")
            }
            face?.stop()
            (face, listen, bound) = (next, http.listen, address)
            notes.append("spytail: http: listening on \(address)")
            if origin == .random { notes.append("spytail: dashboard: http://\(Self.browsable(address))/?token=\(token)") }
        }
        if let recentEntries, recentEntries != http.recentEntries {
            notes.append("spytail: http.recentEntries changes at the next start (kept at \(recentEntries))")
        }
        recentEntries = recentEntries ?? http.recentEntries
        return notes
    }

    public func stop() {
        face?.stop()
        (face, listen, bound) = (nil, nil, nil)
        telemetry.collectsEntries = false
    }

    /// 0.0.0.0 is where it listens, not where a browser goes.
    public static func browsable(_ address: ListenAddress) -> String {
        switch address.host {
        case "0.0.0.0": return "127.0.0.1:\(address.port)"
        case "::": return "[::1]:\(address.port)"
        default: return address.description
        }
    }
}

public struct HTTPSetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
