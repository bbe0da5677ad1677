import SpytailCore

/// Content rotated away before it could be opened (created, written and rotated between two looks, as a
/// logger rotating many times a second does): found when it arrives as the newest copy of a live file.
extension Tailer {
    /// `path` was closed after writing or moved in. If it is the newest rotated copy of a live file and holds
    /// content never seen under that live path in this run, it is read whole now (as the live path).
    func catchUpUnseenRotation(_ path: String) throws(SinkError) {
        guard state != .disabled, !pipeline.isStalled, let (live, source) = liveFile(ofCopy: path),
              discovery.rotatedChain(of: live, source: source).last == path,
              let fingerprint = Fingerprinter.ofFile(path), !hasSeen(fingerprint, under: live) else { return }
        events.report(.following(path: path, offset: 0))
        remember(fingerprint, under: live)
        try catchUp(path, from: 0, fingerprint: fingerprint, as: live)
    }

    /// The live file (and its source) whose rotated copy `path` is, in its folder or as its source's olddir.
    func liveFile(ofCopy path: String) -> (String, SpytailConfig.Source)? {
        let name = Paths.baseName(of: path), directory = Paths.parent(of: path)
        // By the built-in names: the live name is in the copy's name (the live file need not exist now).
        var candidates = [directory, Paths.parent(of: directory)].compactMap { folder in
            RotationName.liveName(of: name).map { Paths.join(folder, $0) }
        }
        candidates += byPath.keys.sorted()  // a source's rotatedPattern: the live files followed now
        for candidate in candidates {
            guard let source = config.sources.first(where: { $0.rotated && discovery.isLiveFile(candidate, of: $0) }),
                  discovery.chainDirectories(of: candidate, source: source).contains(directory),
                  discovery.naming(for: source).parse(live: Paths.baseName(of: candidate), candidate: name) != nil
            else { continue }
            return (candidate, source)
        }
        return nil
    }

    /// Whether content with `fingerprint` was seen under `live`: remembered, or open now.
    func hasSeen(_ fingerprint: Fingerprint, under live: String) -> Bool {
        if seenContents[live]?.contains(fingerprint) == true { return true }
        return files.values.contains { $0.followPath == live && $0.source?.fingerprint == fingerprint }
            || retired.values.contains { $0.checkpoint.path == live && $0.checkpoint.fingerprint == fingerprint }
    }

    func remember(_ fingerprint: Fingerprint?, under live: String) {
        guard let fingerprint else { return }
        var seen = seenContents[live, default: []]
        guard !seen.contains(fingerprint) else { return }
        seen.append(fingerprint)
        if seen.count > 256 { seen.removeFirst(seen.count - 256) }
        seenContents[live] = seen
    }
}
