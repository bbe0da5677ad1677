/// The envelope a container runtime wraps each line of a container's output in (`parsers.*.format`).
public enum ContainerFormat: String, Sendable, CaseIterable {
    /// CRI (containerd, CRI-O, podman's conmon): `2026-11-25T12:00:00.123456789Z stdout F text`, where `P`
    /// instead of `F` marks a part of a longer line that the next parts complete.
    case cri
    /// Docker's json-file driver: `{"log":"text\n","stream":"stdout","time":"…"}`; a `log` without its
    /// final `\n` is a part of a longer line.
    case docker
}

/// Which of a container's two outputs a line was written to.
public enum ContainerStream: Int, Sendable, CaseIterable {
    case stdout = 0, stderr = 1

    static let stdoutBytes: [UInt8] = Array("stdout".utf8)
    static let stderrBytes: [UInt8] = Array("stderr".utf8)

    /// `stdout` or `stderr`, else nil.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 6 else { return nil }
        if bytes.elementsEqual(Self.stdoutBytes) { self = .stdout } else if bytes.elementsEqual(Self.stderrBytes) { self = .stderr } else { return nil }
    }

    var bytes: [UInt8] { self == .stdout ? Self.stdoutBytes : Self.stderrBytes }
}
