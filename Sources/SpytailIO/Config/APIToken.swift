import Glibc
import SpytailCore

/// The token `/api` asks for: the first line of `http.tokenFile`, or one made at random for this run.
public enum APIToken {
    public enum Origin: Sendable, Equatable { case file(String), random }

    /// Reads the token file (resolved against the config's folder); an unreadable or empty file is an error
    /// naming it. Without a token file: 32 random hex digits.
    public static func load(_ file: ConfigFile) throws(ConfigFileError) -> (token: String, origin: Origin) {
        guard let name = file.config.http?.tokenFile else { return (random(), .random) }
        let path = file.resolve(name)
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.readAll(path)
        } catch {
            throw ConfigFileError(path: file.path, unreadable: "\(file.path): http.tokenFile: cannot read '\(path)': \(error.unreadable ?? "\(error)")")
        }
        let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).first.map { Array($0) } ?? []
        let token = String(decoding: line, as: UTF8.self).trimmingCharacters(in: " \t\r")
        guard token.count >= 16 else {
            throw ConfigFileError(path: file.path, unreadable: "\(file.path): http.tokenFile: '\(path)' must hold a token of at least 16 characters")
        }
        return (token, .file(path))
    }

    /// 128 random bits as 32 hex digits, from the system's secure generator (getrandom(2) on Linux).
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        var view = Substring(self)
        while let first = view.unicodeScalars.first, scalars.contains(first) { view = view.dropFirst() }
        while let last = view.unicodeScalars.last, scalars.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
