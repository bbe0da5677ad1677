import Foundation
import Testing
import SpytailTestSupport

/// `deploy/kubernetes/`: valid against the Kubernetes schemas (PyPI `kubernetes-validate`, strict), its ConfigMap
/// holding `config/kubernetes.json` exactly, and that config accepted by `spytail check` where the DaemonSet's
/// mounts would be.
struct DeployManifestTests {
    static let folder = Harness.packageRoot.appendingPathComponent("deploy/kubernetes").path
    static let canValidate = (try? Harness.run("/usr/bin/env", ["python3", "-m", "kubernetes_validate", "--version"]).status) == 0

    static var manifests: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
    }

    @Test(.enabled(if: canValidate || ProcessInfo.processInfo.environment["SPYTAIL_CI"] != nil,
                   "needs PyPI kubernetes-validate (scripts/install-deps installs it)"))
    func theManifestsAreValidKubernetesObjects() throws {
        #expect(Self.manifests.count == 4, "\(Self.manifests)")
        let result = try Harness.run("/usr/bin/env", ["python3", "-m", "kubernetes_validate", "--strict", "--quiet"] + Self.manifests)
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
    }

    @Test func theConfigMapHoldsConfigKubernetesJSON() throws {
        let yaml = try String(contentsOfFile: "\(Self.folder)/02-configmap.yaml", encoding: .utf8)
        let block = try #require(yaml.range(of: "  kubernetes.json: |\n"))
        let embedded = yaml[block.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        let file = try String(contentsOfFile: Harness.packageRoot.appendingPathComponent("config/kubernetes.json").path, encoding: .utf8)
        #expect(embedded.trimmingCharacters(in: .whitespacesAndNewlines) == file.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func theDaemonSetMountsWhatTheConfigNames() throws {
        let daemonSet = try String(contentsOfFile: "\(Self.folder)/03-daemonset.yaml", encoding: .utf8)
        let config = try String(contentsOfFile: Harness.packageRoot.appendingPathComponent("config/kubernetes.json").path, encoding: .utf8)
        #expect(daemonSet.contains(#"args: ["run", "--config", "/etc/spytail/k8s/kubernetes.json"]"#))
        for (mount, named) in [("mountPath: /var/log/pods, readOnly: true", "/var/log/pods/"), ("mountPath: /var/lib/spytail", "/var/lib/spytail/checkpoints.json"),
                               ("mountPath: /run/secrets/spytail", "/run/secrets/spytail/token")] {
            #expect(daemonSet.contains(mount) && config.contains(named), "\(mount) / \(named)")
        }
        #expect(daemonSet.contains("containerPort: 9880") && config.contains(#""listen": "0.0.0.0:9880""#))
        #expect(daemonSet.contains("path: /healthz") && daemonSet.contains("path: /readyz"))
    }

    @Test func theConfigIsAcceptedWhereTheMountsWouldBe() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for folder in ["pods", "state", "secrets"] { try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true) }
        _ = dir.write("secrets/token", "k8s-secret-token-0123456789\n")
        let original = try String(contentsOfFile: Harness.packageRoot.appendingPathComponent("config/kubernetes.json").path, encoding: .utf8)
        let config = dir.write("kubernetes.json", original.replacingOccurrences(of: "/var/log/pods", with: dir.file("pods"))
            .replacingOccurrences(of: "/var/lib/spytail", with: dir.file("state")).replacingOccurrences(of: "/run/secrets/spytail", with: dir.file("secrets")))
        let check = try Harness.spytail(["check", "--config", config])
        #expect(check.status == 0, "\(check.stdoutText)\(check.stderr)")
        // A pod's line, read with the shipped config: its k8s fields and stream come out.
        let pod = dir.file("pods/shop_web-1_0f1e-22/app")
        try FileManager.default.createDirectory(atPath: pod, withIntermediateDirectories: true)
        _ = dir.write("pods/shop_web-1_0f1e-22/app/0.log", "2026-11-25T12:00:00.5Z stderr F ERROR payment failed\n")
        let scan = try Harness.spytail(["scan", "--config", config, "--format", "jsonl", "-o", "-"])
        let record = try #require(try Harness.records(scan).first, "\(scan.stderr)")
        #expect(record["category"] as? String == "error")
        let fields = try #require(record["fields"] as? [String: Any])
        #expect((fields["k8s"] as? [String: String]) == ["namespace": "shop", "pod": "web-1", "pod_uid": "0f1e-22", "container": "app", "restart": "0"])
        #expect(fields["stream"] as? String == "stderr")
    }
}
