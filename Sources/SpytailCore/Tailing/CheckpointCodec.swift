/// The checkpoint file's format, versioned:
/// `{"version":1,"files":[{"path":…,"device":…,"inode":…,"fingerprint":"…","offset":…,"tailHash":"…"}]}`,
/// with `"drained":true` on a rotated-away file read to its end, and `"seen":{"<live path>":["<fingerprint>",…]}`,
/// the contents seen under each live path, oldest first, `"<fingerprint>@<offset>"` for one let go part-way
/// known (both optional keys: version 1 still; a file without `seen` resumes as before it was written).
public enum CheckpointCodec {
    public static let version = 1

    /// Why a checkpoint file could not be used.
    public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func encode(_ saved: SavedPositions) -> [UInt8] {
        let out = OutputBuffer(capacity: 256 + saved.checkpoints.count * 200 + saved.seen.count * 100)
        out.append("{\"version\":\(version),\"files\":[")
        for (i, c) in saved.checkpoints.sorted(by: { $0.path < $1.path }).enumerated() {
            if i > 0 { out.append(",\n  ") } else { out.append("\n  ") }
            out.append("{\"path\":")
            out.appendJSONString(c.path)
            out.append(",\"device\":\(c.identity.device),\"inode\":\(c.identity.inode),\"fingerprint\":\"\(c.fingerprint)\"")
            out.append(",\"offset\":\(c.offset),\"tailHash\":\"\(Fingerprint(value: c.tailHash))\"")
            out.append(c.drained ? ",\"drained\":true}" : "}")
        }
        out.append("\n]")
        if !saved.seen.isEmpty {
            out.append(",\"seen\":{")
            for (i, (path, contents)) in saved.seen.sorted(by: { $0.key < $1.key }).enumerated() {
                out.append(i > 0 ? ",\n  " : "\n  ")
                out.appendJSONString(path)
                out.append(":[")
                out.append(contents.map { "\"\($0.fingerprint)\($0.readTo.map { "@\($0)" } ?? "")\"" }.joined(separator: ","))
                out.append("]")
            }
            out.append("\n}")
        }
        out.append("}\n")
        return out.array
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SavedPositions {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw DecodeError(reason: "\(error)") }
        guard case .object(let top) = json else { throw DecodeError(reason: "not a JSON object") }
        guard top["version"] == .number(Double(version)) else {
            throw DecodeError(reason: "unsupported version \(top["version"].map { "\($0)" } ?? "(none)"); this spytail writes \(version)")
        }
        guard case .array(let files)? = top["files"] else { throw DecodeError(reason: "files: expected an array") }
        let checkpoints = try files.enumerated().map { (i, value) throws(DecodeError) in try checkpoint(value, at: i) }
        return SavedPositions(checkpoints: checkpoints, seen: try seen(top["seen"]))
    }

    static func seen(_ value: JSONValue?) throws(DecodeError) -> [String: [SavedPositions.Seen]] {
        guard let value else { return [:] }
        guard case .object(let paths) = value else { throw DecodeError(reason: "seen: expected an object") }
        var seen: [String: [SavedPositions.Seen]] = [:]
        for (path, list) in paths {
            guard case .array(let items) = list else { throw DecodeError(reason: "seen[\(path)]: expected an array") }
            seen[path] = try items.enumerated().map { (i, item) throws(DecodeError) in
                guard case .string(let text) = item, let content = seenContent(text) else {
                    throw DecodeError(reason: "seen[\(path)][\(i)]: expected a fingerprint (hex), then @ and an offset when read part-way")
                }
                return content
            }
        }
        return seen
    }

    /// `<fingerprint>` or `<fingerprint>@<offset>`.
    static func seenContent(_ text: String) -> SavedPositions.Seen? {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let value = UInt64(parts[0], radix: 16) else { return nil }
        guard parts.count == 2 else { return SavedPositions.Seen(Fingerprint(value: value)) }
        guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
        return SavedPositions.Seen(Fingerprint(value: value), readTo: offset)
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
