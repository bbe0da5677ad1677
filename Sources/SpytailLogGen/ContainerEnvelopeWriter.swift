/// Writes an application's output lines as container runtimes put them on a node's disk, from their
/// documentation and source:
/// - **containerd** (CRI, `pkg/cri/io/logger.go`): `<time> <stream> <P|F> <text>`, the time in Go's
///   RFC3339Nano (`Z`, trailing zeros of the fraction dropped), lines longer than 16 KiB cut into `P` parts
///   of 16,384 bytes and a last `F` part.
/// - **conmon** (podman, CRI-O, `src/ctr_logging.c`): the same shape, the time with a `+00:00` offset and
///   nine fraction digits, parts of at most 8,192 bytes; output that ends without a newline is a last `P`.
/// - **Docker** json-file (`daemon/logger/jsonfilelog`): `{"log":"<text>\n","stream":"stdout","time":"…"}`
///   in Go's JSON (`<`, `>`, `&` as `\u003c`…), lines cut at 16 KiB into entries whose `log` lacks the `\n`.
public struct ContainerEnvelopeWriter {
    public enum Runtime: String, Sendable, CaseIterable {
        case containerd, conmon, docker

        /// Bytes of text in one physical line before the runtime cuts.
        public var partSize: Int { self == .conmon ? 8192 : 16384 }
    }

    public let runtime: Runtime
    /// Overrides `runtime.partSize` (tests cut small to get many parts).
    public let partSize: Int

    public init(runtime: Runtime, partSize: Int? = nil) {
        self.runtime = runtime
        self.partSize = partSize ?? runtime.partSize
    }

    /// The physical lines (each with its `\n`) for one application line, written at `nanos` since the epoch.
    public func lines(for text: [UInt8], stdout: Bool, nanos: Int64, complete: Bool = true) -> [UInt8] {
        let stream = stdout ? "stdout" : "stderr"
        let time = Array(timeText(nanos).utf8)
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + partSize, text.count)
            let last = end == text.count
            append(part: text[start..<end], final: last && complete, stream: stream, time: time, to: &out)
            start = end
        } while start < text.count
        return out
    }

    private func append(part: ArraySlice<UInt8>, final: Bool, stream: String, time: [UInt8], to out: inout [UInt8]) {
        switch runtime {
        case .containerd, .conmon:
            out.append(contentsOf: time)
            out.append(contentsOf: Array(" \(stream) \(final ? "F" : "P") ".utf8))
            out.append(contentsOf: part)
        case .docker:
            out.append(contentsOf: Array(#"{"log":""#.utf8))
            Self.appendGoJSON(part, to: &out)
            if final { out.append(contentsOf: Array(#"\n"#.utf8)) }
            out.append(contentsOf: Array(#"","stream":"\#(stream)","time":""#.utf8))
            out.append(contentsOf: time)
            out.append(contentsOf: Array(#""}"#.utf8))
        }
        out.append(0x0A)
    }

    /// The runtime's spelling of the instant.
    public func timeText(_ nanos: Int64) -> String {
        let seconds = nanos / 1_000_000_000, fraction = Int(nanos % 1_000_000_000)
        let date = CivilTime(epochSeconds: Int(seconds)).iso8601  // 2026-11-25T12:00:00
        let digits = decimal(fraction, width: 9)
        switch runtime {
        case .conmon:
            return "\(date).\(digits)+00:00"
        case .containerd, .docker:
            var trimmed = Substring(digits)
            while trimmed.last == "0" { trimmed = trimmed.dropLast() }
            return trimmed.isEmpty ? "\(date)Z" : "\(date).\(trimmed)Z"
        }
    }

    /// Go's encoding/json string escaping: `"` `\` and control bytes, `<` `>` `&` as `\u00XX`, and each byte
    /// of invalid UTF-8 (a character cut where the runtime cut a long line) as `\ufffd`.
    static func appendGoJSON(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b >= 0x80 {
                let length = validSequenceLength(bytes, at: i)
                if length == 0 {
                    out += Array(#"\ufffd"#.utf8)
                    i += 1
                } else {
                    out += bytes[i..<(i + length)]
                    i += length
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): out += [0x5C, b]
            case UInt8(ascii: "\\"): out += [0x5C, b]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
            i += 1
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (a byte ≥ 0x80), or 0.
    static func validSequenceLength(_ bytes: ArraySlice<UInt8>, at i: Int) -> Int {
        let b = bytes[i]
        let (length, low, high): (Int, UInt8, UInt8)
        switch b {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return 0
        }
        guard i + length <= bytes.endIndex, (low...high).contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return 0 }
        return length
    }
}
