import Foundation
import Glibc
import Testing
import SpytailTestSupport

/// What the Docker image runs, run for real without a Docker engine: Debian's `mmdebstrap` builds the
/// runtime image's userland (bookworm minbase plus the Dockerfile's runtime packages), the static release
/// binary and `config/container.json` go where the Dockerfile puts them, and the entrypoint runs there in a
/// chroot as uid 10001. A missing runtime library, or a permission the Dockerfile forgot, fails here.
///
/// Needs root, mmdebstrap (and Debian's archive) and a static release build:
/// `swift build -c release --static-swift-stdlib --product spytail` (`.ci/run` does both, then runs this).
@Suite(.ownThread, .serialized)
struct ContainerImageTests {
    /// The runtime packages of the Dockerfile's last stage, read from the Dockerfile itself (its `apt-get
    /// install … --no-install-recommends PACKAGES` after `FROM debian:bookworm-slim`).
    static let runtimePackages: [String] = {
        let dockerfile = (try? String(contentsOf: Harness.packageRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)) ?? ""
        guard let stage = dockerfile.range(of: "FROM debian:bookworm-slim") else { return [] }
        let line = dockerfile[stage.upperBound...].split(separator: "\n").first { $0.contains("--no-install-recommends") } ?? ""
        return line.split(separator: " ").drop { $0 != "--no-install-recommends" }.dropFirst().prefix { $0 != "\\" }.map(String.init)
    }()

    static let releaseBinary: String? = {
        let path = ProcessInfo.processInfo.environment["SPYTAIL_RELEASE_BIN"]
            ?? Harness.packageRoot.appendingPathComponent(".build/release/spytail").path
        guard FileManager.default.isExecutableFile(atPath: path),
              let ldd = try? Harness.run("/usr/bin/ldd", [path]), !ldd.stdoutText.contains("libswift") else { return nil }
        return path
    }()

    /// Runs where it can; where SPYTAIL_RELEASE_BIN names a binary (as CI does) it must run, and fails if it cannot.
    static let canRun = ProcessInfo.processInfo.environment["SPYTAIL_RELEASE_BIN"] != nil
        || (getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/mmdebstrap") && releaseBinary != nil)

    /// The userland, built once per machine (kept in the temp folder, keyed by the package list).
    static func rootfs() throws -> String {
        let key = runtimePackages.joined(separator: "_").replacingOccurrences(of: "+", with: "p")
        let tarball = NSTemporaryDirectory() + "spytail-runtime-bookworm-\(key).tar"
        if !FileManager.default.fileExists(atPath: tarball) {
            let built = try Harness.run("/usr/bin/mmdebstrap", ["--quiet", "--format=tar", "--variant=minbase", "--include=" + runtimePackages.joined(separator: ","),
                                                                "bookworm", tarball + ".part"])
            guard built.status == 0 else { throw ImageError.mmdebstrap(built.stderr) }
            try FileManager.default.moveItem(atPath: tarball + ".part", toPath: tarball)
        }
        let root = TemporaryDirectory("spytail-image").path
        let unpacked = try Harness.run("/bin/tar", ["-xf", tarball, "-C", root])
        guard unpacked.status == 0 else { throw ImageError.tar(unpacked.stderr) }
        return root
    }

    enum ImageError: Error { case mmdebstrap(String), tar(String), setup(String) }

    /// The Dockerfile's RUN and COPY steps of the runtime stage, in the chroot.
    static func installAsTheDockerfileDoes(_ root: String, binary: String) throws {
        let steps = [
            ["/usr/sbin/chroot", root, "groupadd", "--system", "--gid", "10001", "spytail"],
            ["/usr/sbin/chroot", root, "useradd", "--system", "--uid", "10001", "--gid", "spytail", "--home-dir", "/var/lib/spytail",
             "--shell", "/usr/sbin/nologin", "spytail"],
            ["/usr/sbin/chroot", root, "install", "-d", "-o", "spytail", "-g", "spytail", "-m", "0750", "/var/lib/spytail"],
            ["/usr/sbin/chroot", root, "install", "-d", "-m", "0755", "/etc/spytail", "/var/log/app"],
            ["/usr/bin/install", "-D", "-m", "0755", binary, root + "/usr/local/bin/spytail"],
            ["/usr/bin/install", "-m", "0644", Harness.packageRoot.appendingPathComponent("config/container.json").path,
             Harness.packageRoot.appendingPathComponent("config/spytail.schema.json").path, root + "/etc/spytail/"],
        ]
        for step in steps {
            let result = try Harness.run(step[0], Array(step.dropFirst()))
            guard result.status == 0 else { throw ImageError.setup("\(step.joined(separator: " ")): \(result.stderr)") }
        }
    }

    /// The image's CMD as uid 10001 in the chroot, with its own /proc; stdout to `reader`.
    static func entrypoint(_ root: String, stdout reader: PipeReader, stderr: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        // unshare, chroot and setpriv exec one another: SIGTERM reaches spytail itself, as `docker stop` does.
        process.arguments = ["--mount", "--mount-proc=\(root)/proc", "/usr/sbin/chroot", root,
                             "setpriv", "--reuid=10001", "--regid=10001", "--clear-groups",
                             "/usr/local/bin/spytail", "run", "--config", "/etc/spytail/container.json"]
        process.standardOutput = reader.pipe
        FileManager.default.createFile(atPath: stderr, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        try process.run()
        return process
    }

    @Test func theDockerfilesRuntimePackagesAreRead() {
        #expect(Self.runtimePackages.contains("libinotifytools0") && Self.runtimePackages.contains("libpcre2-8-0"), "\(Self.runtimePackages)")
    }

    @Test(.enabled(if: canRun, "needs root, mmdebstrap and a static release build (swift build -c release --static-swift-stdlib --product spytail)"))
    func theEntrypointFollowsTheLogVolumeStopsOnSIGTERMAndResumes() throws {
        let binary = try #require(Self.releaseBinary, "SPYTAIL_RELEASE_BIN must be a static release build (no libswift in ldd)")
        #expect(getuid() == 0, "the chroot and the uid switch need root")
        let root = try Self.rootfs()
        defer { TemporaryDirectory.removeTree(root) }
        try Self.installAsTheDockerfileDoes(root, binary: binary)
        // The API token, as a mounted secret (a Kubernetes Secret volume, `docker run --secret`).
        let token = "container-secret-token-0123456789"
        try FileManager.default.createDirectory(atPath: root + "/run/secrets", withIntermediateDirectories: true)
        try (token + "\n").write(toFile: root + "/run/secrets/spytail-token", atomically: true, encoding: .utf8)
        chmod(root + "/run/secrets/spytail-token", 0o444)
        let log = root + "/var/log/app/app.log", stderr = root + "/entrypoint.stderr"
        FileManager.default.createFile(atPath: log, contents: Data("2026-11-20T10:00:00Z INFO [ci] first line seq=1\n".utf8))
        chmod(log, 0o644)

        let first = PipeReader()
        let spytail = try Self.entrypoint(root, stdout: first, stderr: stderr)
        #expect(first.read(for: 20) { String(decoding: $0.data, as: UTF8.self).contains("seq=1") }, "\(Self.text(stderr))")
        try RunToolsOutput.append(log, "2026-11-20T10:00:01Z ERROR second line seq=2\n")
        #expect(first.read(for: 20) { String(decoding: $0.data, as: UTF8.self).contains("seq=2") }, "\(Self.text(stderr))")
        // The probes and the API on the image's port 9880, with the mounted token.
        let health = try Harness.run("/usr/bin/curl", ["-s", "--max-time", "10", "http://127.0.0.1:9880/healthz"])
        #expect(health.stdoutText == "ok\n", "\(health.stdoutText) \(Self.text(stderr))")
        let info = try Harness.run("/usr/bin/curl", ["-s", "--max-time", "10", "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:9880/api/info"])
        #expect(info.stdoutText.contains(#""state":"recording""#), "\(info.stdoutText)")
        kill(spytail.processIdentifier, SIGTERM)
        spytail.waitUntilExit()
        #expect(spytail.terminationStatus == 0, "\(Self.text(stderr))")
        let checkpoints = root + "/var/lib/spytail/checkpoints.json"
        let owner = (try? FileManager.default.attributesOfItem(atPath: checkpoints))?[.ownerAccountID] as? Int
        #expect(owner == 10001, "checkpoints written by the image's user to the state volume")
        let records = String(decoding: first.data, as: UTF8.self).split(separator: "\n")
        #expect(records.count == 2 && records[1].contains(#""category":"error""#), "\(records)")

        // A restarted container resumes: only what came while it was down, then what comes next.
        try RunToolsOutput.append(log, "2026-11-20T10:00:02Z INFO while stopped seq=3\n")
        let second = PipeReader()
        let restarted = try Self.entrypoint(root, stdout: second, stderr: stderr)
        #expect(second.read(for: 20) { String(decoding: $0.data, as: UTF8.self).contains("seq=3") }, "\(Self.text(stderr))")
        kill(restarted.processIdentifier, SIGTERM)
        restarted.waitUntilExit()
        #expect(restarted.terminationStatus == 0)
        let resumed = String(decoding: second.data, as: UTF8.self).split(separator: "\n")
        #expect(resumed.count == 1 && resumed[0].contains("seq=3"), "\(resumed)")
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}
