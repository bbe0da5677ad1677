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

    /// `stdout` or `stderr`, else nil (compared as one word: this runs for every physical line).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 6, let p = bytes.baseAddress else { return nil }
        let low = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
        let high = UInt16(littleEndian: UnsafeRawPointer(p + 4).loadUnaligned(as: UInt16.self))
        switch UInt64(low) | UInt64(high) << 32 {
        case 0x7475_6F64_7473: self = .stdout  // "stdout", first byte lowest
        case 0x7272_6564_7473: self = .stderr  // "stderr"
        default: return nil
        }
    }
}
