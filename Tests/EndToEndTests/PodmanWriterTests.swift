import Foundation
import Glibc
import Testing
import SpytailTestSupport

/// A real container runtime's log writer: Debian's podman runs a Python program in a Debian rootfs built by
/// mmdebstrap (no image registry), with `--log-driver k8s-file`, so conmon writes the CRI lines — long lines cut
/// into `P` parts of 8 KiB, stdout and stderr interleaved, output without a final newline left as a last `P` —
/// into a `/var/log/pods`-shaped path that `spytail run` follows while the container writes.
///
/// Needs root, podman with runc, and mmdebstrap with Debian's archive (`.ci/run` installs them). The runtime is
/// probed first; where it cannot start a container (no cgroups to use, say) the test is skipped, and the node
/// test's own writer (`NodeWriter`, the same lines from conmon's and containerd's source) still runs.
@Suite(.ownThread, .serialized)
struct PodmanWriterTests {
    static let podman = "/usr/bin/podman"

    /// podman as root raises RLIMIT_NOFILE and RLIMIT_NPROC past this machine's hard limits, which the runtime
    /// may not do: the containers get the hard limits instead (containers.conf); and runc (crun refuses hybrid
    /// cgroup hierarchies).
    static let containersConf: String = {
        var limit = rlimit(), processes = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(6, &processes)  // RLIMIT_NPROC (a macro Swift does not import)
        let path = NSTemporaryDirectory() + "spytail-containers.conf"
        FileManager.default.createFile(atPath: path, contents: Data("""
            [containers]
            default_ulimits = ["nofile=\(limit.rlim_max):\(limit.rlim_max)", "nproc=\(min(processes.rlim_max, 32768)):\(min(processes.rlim_max, 32768))"]

            """.utf8))
        return path
    }()

    /// The userland the program runs in, built once per machine (kept in the temp folder as a tarball).
    static func rootfs() throws -> String {
        let tarball = NSTemporaryDirectory() + "spytail-podman-bookworm-python3.tar"
        if !FileManager.default.fileExists(atPath: tarball) {
            let built = try Harness.run("/usr/bin/mmdebstrap", ["--quiet", "--format=tar", "--variant=essential", "--include=python3-minimal",
                                                                "bookworm", tarball + ".part"])
            guard built.status == 0 else { throw Failure.setup("mmdebstrap: \(built.stderr)") }
            try FileManager.default.moveItem(atPath: tarball + ".part", toPath: tarball)
        }
        let root = TemporaryDirectory("spytail-podman-root").path
        let unpacked = try Harness.run("/bin/tar", ["-xf", tarball, "-C", root])
        guard unpacked.status == 0 else { throw Failure.setup("tar: \(unpacked.stderr)") }
        return root
    }

    enum Failure: Error { case setup(String) }

    /// `podman run` of `argv` in `root`, its output logged by conmon to `log`.
    static func podmanRun(_ root: String, log: String, _ argv: [String]) throws -> Harness.Result {
        let process = ["--runtime", "/usr/sbin/runc", "run", "--rm", "--network", "none", "--log-driver", "k8s-file", "--log-opt", "path=\(log)",
                       "--rootfs", root] + argv
        return try Harness.run("/usr/bin/env", ["CONTAINERS_CONF=\(containersConf)", podman] + process)
    }

    /// Whether podman can start a container here (said once, with why not).
    static let runtimeWorks: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: podman), FileManager.default.isExecutableFile(atPath: "/usr/sbin/runc"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/mmdebstrap") else { return false }
        do {
            let root = try rootfs()
            defer { TemporaryDirectory.removeTree(root) }
            let probe = try podmanRun(root, log: NSTemporaryDirectory() + "spytail-podman-probe.log", ["/bin/true"])
            if probe.status != 0 { print("PodmanWriterTests: podman cannot run a container here: \(probe.stderr)") }
            return probe.status == 0
        } catch {
            print("PodmanWriterTests: \(error)")
            return false
        }
    }()

    static let program = #"""
        import sys
        for i in range(1, 301):
            if i % 25 == 0:
                print("seq=%d stream=stdout long %s" % (i, "y" * (8192 * 2 + 100)), flush=True)
            elif i % 3 == 0:
                sys.stderr.write("seq=%d stream=stderr on stderr\n" % i); sys.stderr.flush()
            else:
                print("seq=%d stream=stdout hello ünïcode" % i, flush=True)
        sys.stdout.write("seq=301 stream=stdout no newline at the end"); sys.stdout.flush()
        """#

    @Test(.enabled(if: runtimeWorks, "needs root, podman, runc and mmdebstrap, and a machine where podman can start a container"))
    func conmonsCRILinesAreFollowedJoinedAndFieldedAsWritten() throws {
        let dir = try RunTools.workspace(["pods/shop_web-1_5e1f/app", "state"])
        defer { dir.remove() }
        let config = dir.write("c.json", #"""
            {"sources": [{"name": "pods", "include": ["pods/*/*/*.log"], "parser": "cri", "pathFieldsKey": "k8s",
                          "pathFields": "/pods/(?<namespace>[^_/]+)_(?<pod>[^_/]+)_(?<pod_uid>[^/]+)/(?<container>[^/]+)/(?<restart>\\d+)\\.log"}],
             "parsers": {"cri": {"format": "cri"}}, "checkpoints": "state/cp.json",
             "outputs": [{"type": "file", "path": "out.jsonl", "format": "jsonl"}]}
            """#)
        let root = try Self.rootfs()
        defer { TemporaryDirectory.removeTree(root) }
        let spytail = try RunningSpytail(config: config, in: dir)
        #expect(RunTools.waitUntil(10) { FileManager.default.fileExists(atPath: dir.file("state/cp.json")) }, "\(spytail.stderr)")
        let log = dir.file("pods/shop_web-1_5e1f/app/0.log")
        let ran = try Self.podmanRun(root, log: log, ["/usr/bin/python3", "-c", Self.program])
        #expect(ran.status == 0, "\(ran.stderr)")
        let written = try String(contentsOfFile: log, encoding: .utf8)
        #expect(written.contains(" stdout P ") && written.contains(" stderr F "), "conmon cut the long lines into parts")
        let out = RunToolsOutput(path: dir.file("out.jsonl"))
        // The last output has no newline: conmon leaves it as a P part; the multiline idle timeout hands it out.
        #expect(RunTools.waitUntil(20) { out.linesOnDisk >= 301 }, "\(out.linesOnDisk) records: \(spytail.stderr)")
        #expect(spytail.stop().status == 0)
        let records = out.records
        let seqs = records.compactMap { ($0["message"] as? String).flatMap(RunTools.seq) }
        // conmon reads stdout and stderr from two pipes: the file interleaves them as they came, not as printed.
        #expect(seqs.sorted() == Array(1...301), "every line once: \(seqs.count)")
        let offsets = records.compactMap { ($0["source"] as? [String: Any])?["offset"] as? Int }
        #expect(offsets == offsets.sorted() && offsets.count == 301, "in the file's order")
        for record in records {
            let message = record["message"] as? String ?? ""
            let fields = record["fields"] as? [String: Any] ?? [:]
            let seq = RunTools.seq(in: message) ?? 0
            #expect(fields["stream"] as? String == (seq % 3 == 0 && seq % 25 != 0 ? "stderr" : "stdout"), "\(message.prefix(60))")
            if seq % 25 == 0 { #expect(message.utf8.count == "seq=\(seq) stream=stdout long ".utf8.count + 8192 * 2 + 100, "joined whole") }
            #expect((fields["k8s"] as? [String: String])?["pod"] == "web-1")
            #expect(TimestampCheck.isRFC3339(record["timestamp"] as? String))
        }
        #expect(records.last?["message"] as? String == "seq=301 stream=stdout no newline at the end")
    }
}

enum TimestampCheck {
    /// conmon's spelling: nine fraction digits and an offset.
    static func isRFC3339(_ text: String?) -> Bool {
        guard let text, text.count == 35 else { return false }
        return text.hasSuffix("+00:00") || text.hasSuffix("Z")
    }
}
