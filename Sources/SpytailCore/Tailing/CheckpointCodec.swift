/// The checkpoint file's format, versioned:
/// `{"version":1,"files":[{"path":…,"device":…,"inode":…,"fingerprint":"…","offset":…,"tailHash":"…"}]}`,
/// with `"drained":true` on a rotated-away file read to its end, `"anchors":[[offset,"<tail hash>"],…]` (earlier
/// positions, newest first); `"epochs":{"<fingerprint>":N,…}`, the contents cut back by a power loss and the epoch
/// of their ids; and `"seen":{"<live path>":["<fingerprint>",…]}`,
/// the contents seen under each live path, oldest first, `"<fingerprint>@<offset>"` for one let go part-way
/// known; and `"endsAtStart":{"<live path>":{"device":…,"inode":…,"size":…}}`, where a `startAt: end` file ended when
/// the run first met it without a descriptor to open it (all optional keys: version 1 still; a file without them
/// resumes as before they were written).
/// A save that was not made durable also carries its `RecentStamp`:
/// `"recent":{"boot":"<boot id>","follows":{"device":…,"inode":…}}` (`follows` absent: no checkpoint file yet).
public enum CheckpointCodec {
    public static let version = 1

    /// Why a checkpoint file could not be used.
    public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func encode(_ saved: SavedPositions, stamp: RecentStamp? = nil) -> [UInt8] {
        let out = OutputBuffer(capacity: 256 + saved.checkpoints.count * 200 + saved.seen.count * 100)
        out.append("{\"version\":\(version),")
        if let stamp {
            out.append("\"recent\":{\"boot\":")
            out.appendJSONString(stamp.boot)
            if let follows = stamp.follows { out.append(",\"follows\":{\"device\":\(follows.device),\"inode\":\(follows.inode)}") }
            out.append("},\n")
        }
        out.append("\"files\":[")
        for (i, c) in saved.checkpoints.sorted(by: { $0.path < $1.path }).enumerated() {
            if i > 0 { out.append(",\n  ") } else { out.append("\n  ") }
            out.append("{\"path\":")
            out.appendJSONString(c.path)
            out.append(",\"device\":\(c.identity.device),\"inode\":\(c.identity.inode),\"fingerprint\":\"\(c.fingerprint)\"")
            out.append(",\"offset\":\(c.offset),\"tailHash\":\"\(Fingerprint(value: c.tailHash))\"")
            if c.drained { out.append(",\"drained\":true") }
            if !c.anchors.isEmpty {
                out.append(",\"anchors\":[")
                out.append(c.anchors.map { "[\($0.offset),\"\(Fingerprint(value: $0.tailHash))\"]" }.joined(separator: ","))
                out.append("]")
            }
            out.append("}")
        }
        out.append("\n]")
        if !saved.epochs.isEmpty {
            out.append(",\"epochs\":{")
            out.append(saved.epochs.sorted { $0.key.value < $1.key.value }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ","))
            out.append("}")
        }
        appendByPath("seen", saved.seen, to: out) { contents in
            "[" + contents.map { "\"\($0.fingerprint)\($0.readTo.map { "@\($0)" } ?? "")\"" }.joined(separator: ",") + "]"
        }
        appendByPath("endsAtStart", saved.endsAtStart, to: out) { end in
            "{\"device\":\(end.identity.device),\"inode\":\(end.identity.inode),\"size\":\(end.size)}"
        }
        out.append("}\n")
        return out.array
    }

    /// `,"name":{` and a member per live path, in path order, one a line, its value as `value` writes it; nothing when
    /// there is none.
    private static func appendByPath<Value>(_ name: String, _ byPath: [String: Value], to out: OutputBuffer, _ value: (Value) -> String) {
        guard !byPath.isEmpty else { return }
        out.append(",\"\(name)\":{")
        for (i, (path, item)) in byPath.sorted(by: { $0.key < $1.key }).enumerated() {
            out.append(i > 0 ? ",\n  " : "\n  ")
            out.appendJSONString(path)
            out.append(":" + value(item))
        }
        out.append("\n}")
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SavedPositions {
        try decodeStamped(bytes).saved
    }

    /// The positions and, for a save that was not made durable, its stamp.
    public static func decodeStamped(_ bytes: [UInt8]) throws(DecodeError) -> (saved: SavedPositions, stamp: RecentStamp?) {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw DecodeError(reason: "\(error)") }
        guard case .object(let top) = json else { throw DecodeError(reason: "not a JSON object") }
        return (try positions(top), try stamp(top["recent"]))
    }

    static func stamp(_ value: JSONValue?) throws(DecodeError) -> RecentStamp? {
        guard let value else { return nil }
        guard case .object(let o) = value, case .string(let boot)? = o["boot"] else {
            throw DecodeError(reason: "recent: expected an object with a boot id")
        }
        guard let follows = o["follows"] else { return RecentStamp(boot: boot, follows: nil) }
        guard case .object(let f) = follows, case .number(let device)? = f["device"], case .number(let inode)? = f["inode"],
              device >= 0, inode >= 0
        else { throw DecodeError(reason: "recent.follows: expected a device and an inode") }
        return RecentStamp(boot: boot, follows: FileIdentity(device: UInt64(device), inode: UInt64(inode)))
    }

    static func positions(_ top: [String: JSONValue]) throws(DecodeError) -> SavedPositions {
        guard top["version"] == .number(Double(version)) else {
            throw DecodeError(reason: "unsupported version \(top["version"].map { "\($0)" } ?? "(none)"); this spytail writes \(version)")
        }
        guard case .array(let files)? = top["files"] else { throw DecodeError(reason: "files: expected an array") }
        let checkpoints = try files.enumerated().map { (i, value) throws(DecodeError) in try checkpoint(value, at: i) }
        return SavedPositions(checkpoints: checkpoints, seen: try seen(top["seen"]), epochs: try epochs(top["epochs"]),
                              endsAtStart: try endsAtStart(top["endsAtStart"]))
    }

    static func endsAtStart(_ value: JSONValue?) throws(DecodeError) -> [String: SavedPositions.EndAtStart] {
        guard let value else { return [:] }
        guard case .object(let paths) = value else { throw DecodeError(reason: "endsAtStart: expected an object") }
        var ends: [String: SavedPositions.EndAtStart] = [:]
        for (path, end) in paths {
            guard case .object(let o) = end, case .number(let device)? = o["device"], case .number(let inode)? = o["inode"],
                  case .number(let size)? = o["size"], device >= 0, inode >= 0, size >= 0 else {
                throw DecodeError(reason: "endsAtStart[\(path)]: expected a device, an inode and a size")
            }
            ends[path] = SavedPositions.EndAtStart(identity: FileIdentity(device: UInt64(device), inode: UInt64(inode)), size: Int64(size))
        }
        return ends
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

    static func epochs(_ value: JSONValue?) throws(DecodeError) -> [Fingerprint: Int] {
        guard let value else { return [:] }
        guard case .object(let contents) = value else { throw DecodeError(reason: "epochs: expected an object") }
        var epochs: [Fingerprint: Int] = [:]
        for (key, epoch) in contents {
            guard let fingerprint = UInt64(key, radix: 16), case .number(let n) = epoch, n >= 1, n == n.rounded(), n < 1e9 else {
                throw DecodeError(reason: "epochs[\(key)]: expected a fingerprint (hex) and a whole number, 1 or more")
            }
            epochs[Fingerprint(value: fingerprint)] = Int(n)
        }
        return epochs
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
        if let anchors = o["anchors"] { checkpoint.anchors = try Self.anchors(anchors, at: index) }
        return checkpoint
    }

    /// `[[offset, "<tail hash>"], …]`.
    static func anchors(_ value: JSONValue, at index: Int) throws(DecodeError) -> [Checkpoint.Anchor] {
        guard case .array(let items) = value else { throw DecodeError(reason: "files[\(index)].anchors: expected an array") }
        return try items.enumerated().map { (k, item) throws(DecodeError) in
            guard case .array(let pair) = item, pair.count == 2, case .number(let offset) = pair[0], offset >= 0,
                  case .string(let hash) = pair[1], let tailHash = UInt64(hash, radix: 16) else {
                throw DecodeError(reason: "files[\(index)].anchors[\(k)]: expected [offset, \"tail hash (hex)\"]")
            }
            return Checkpoint.Anchor(offset: Int64(offset), tailHash: tailHash)
        }
    }
}
