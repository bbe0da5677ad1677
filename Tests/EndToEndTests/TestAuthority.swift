import Foundation
import SpytailTestSupport

/// A certificate authority made for one test with the `openssl` command: its certificate (`ca.pem`, what a
/// client is told to trust) and a server certificate it signed for 127.0.0.1 (what a test server presents).
struct TestAuthority {
    struct ServerFiles {
        let certificate: String
        let key: String
    }

    let certificate: String
    let server: ServerFiles

    /// Writes the files into `folder` (created); throws when openssl fails, with its stderr.
    init(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        certificate = folder + "/ca.pem"
        server = ServerFiles(certificate: folder + "/server.crt", key: folder + "/server.key")
        try "subjectAltName = IP:127.0.0.1\nbasicConstraints = CA:FALSE\n".write(toFile: folder + "/server.ext", atomically: false, encoding: .utf8)
        try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=spytail test authority",
                          "-keyout", folder + "/ca.key", "-out", certificate])
        try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                          "-keyout", server.key, "-out", folder + "/server.csr"])
        try Self.openssl(["x509", "-req", "-days", "2", "-in", folder + "/server.csr", "-CA", certificate, "-CAkey", folder + "/ca.key",
                          "-CAcreateserial", "-extfile", folder + "/server.ext", "-out", server.certificate])
    }

    static func openssl(_ arguments: [String]) throws {
        let result = try Harness.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else { throw Failure.openssl(arguments.first ?? "", result.stderr) }
    }

    enum Failure: Error { case openssl(String, String) }
}
