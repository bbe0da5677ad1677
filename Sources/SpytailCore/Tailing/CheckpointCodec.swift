/// The checkpoint file's format, versioned:
/// `{"version":1,"files":[{"path":…,"device":…,"inode":…,"fingerprint":"…","offset":…,"tailHash":"…"}]}`,
/// with `"drained":true` on a rotated-away file read to its end (an optional key: version 1 still).
public enum CheckpointCodec {
    public static let version = 1

    /// Why a checkpoint file could not be used.
    public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func encode(_ checkpoints: [Checkpoint]) -> [UInt8] {
        let out = OutputBuffer(capacity: 256 + checkpoints.count * 200)
        out.append("{\"version\":\(version),\"files\":[")
        for (i, c) in checkpoints.sorted(by: { $0.path < $1.path }).enumerated() {
            if i > 0 { out.append(",\n  ") } else { out.append("\n  ") }
            out.append("{\"path\":")
            out.appendJSONString(c.path)
            out.append(",\"device\":\(c.identity.device),\"inode\":\(c.identity.inode),\"fingerprint\":\"\(c.fingerprint)\"")
            out.append(",\"offset\":\(c.offset),\"tailHash\":\"\(Fingerprint(value: c.tailHash))\"")
            out.append(c.drained ? ",\"drained\":true}" : "}")
        }
        out.append("\n]}\n")
        return out.array
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> [Checkpoint] {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw DecodeError(reason: "\(error)") }
        guard case .object(let top) = json else { throw DecodeError(reason: "not a JSON object") }
        guard top["version"] == .number(Double(version)) else {
            throw DecodeError(reason: "unsupported version \(top["version"].map { "\($0)" } ?? "(none)"); this spytail writes \(version)")
        }
        guard case .array(let files)? = top["files"] else { throw DecodeError(reason: "files: expected an array") }
        return try files.enumerated().map { (i, value) throws(DecodeError) in try checkpoint(value, at: i) }
    }

    static func checkpoint(_ value: JSONValue, at index: Int) throws(DecodeError) -> Checkpoint {
        guard case .object(let o) = value,
              case .string(let path)? = o["path"],
              case .number(let device)? = o["device"], case .number(let inode)? = o["inode"],
              case .string(let fingerprint)? = o["fingerprint"], let fp = UInt64(fingerprint, radix: 16),
              case .number(let offset)? = o["offset"], offset >= 0,
              case .string(let tail)? = o["tailHash"], let tailHash = UInt64(tail, radix: 16)
        else { throw DecodeError(reason: "files[\(index)]: missing or malformed field") }
        var checkpoint = Checkpoint(path: path, identity: FileIdentity(device: UInt64(device), inode: UInt64(inode)),
                                    fingerprint: Fingerprint(value: fp), offset: Int64(offset), tailHash: tailHash)
        checkpoint.drained = o["drained"] == .bool(true)
        return checkpoint
    }
}
