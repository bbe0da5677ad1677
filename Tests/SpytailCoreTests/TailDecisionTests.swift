import Testing
@testable import SpytailCore

/// The reconcile step with scripted observations: every event, overflow and start-up ends here.
struct TailDecisionTests {
    static let ours = FileIdentity(device: 1, inode: 10)
    static let other = FileIdentity(device: 1, inode: 11)

    /// (what the look shows, following the path?, expected decision); our offset is 100.
    static let cases: [(String, FileObservation, Bool, TailDecision)] = [
        ("nothing new", .init(size: 100, links: 1, pathIdentity: ours), true, .unchanged),
        ("appended", .init(size: 150, links: 1, pathIdentity: ours), true, .grew),
        ("copytruncate", .init(size: 20, links: 1, pathIdentity: ours), true, .truncated),
        ("truncated to zero", .init(size: 0, links: 1, pathIdentity: ours), true, .truncated),
        ("truncated and refilled past our offset", .init(size: 500, links: 1, pathIdentity: ours, headMatches: false), true, .truncated),
        ("renamed, new file created", .init(size: 150, links: 1, pathIdentity: other), true, .rotated(newFileAtPath: true)),
        ("renamed, no new file yet", .init(size: 100, links: 1, pathIdentity: nil), true, .rotated(newFileAtPath: false)),
        ("deleted", .init(size: 100, links: 0, pathIdentity: nil), true, .deleted(newFileAtPath: false)),
        ("deleted and recreated", .init(size: 120, links: 0, pathIdentity: other), true, .deleted(newFileAtPath: true)),
        ("draining a rotated copy that grew", .init(size: 180, links: 1, pathIdentity: other), false, .grew),
        ("draining a rotated copy, then deleted", .init(size: 180, links: 0, pathIdentity: nil), false, .deleted(newFileAtPath: false)),
    ]

    @Test(arguments: cases)
    func decides(_ name: String, _ observation: FileObservation, _ following: Bool, _ expected: TailDecision) {
        #expect(TailDecision.decide(identity: Self.ours, offset: 100, following: following, observation: observation) == expected, "\(name)")
    }
}

struct CheckpointCodecTests {
    @Test func roundTrips() throws {
        let checkpoints = [
            Checkpoint(path: "/var/log/app/app.log", identity: FileIdentity(device: 2049, inode: 1_234_567), fingerprint: Fingerprint(value: 0xDEAD_BEEF),
                       offset: 987_654_321, tailHash: 0xFFFF_FFFF_FFFF_FFFF),
            Checkpoint(path: "/var/log/app/\"odd\" name.log", identity: FileIdentity(device: 1, inode: 2), fingerprint: Fingerprint(value: 1),
                       offset: 0, tailHash: 0),
        ]
        let seen: [String: [SavedPositions.Seen]] = ["/var/log/app/app.log": [.init(Fingerprint(value: 0xA)), .init(Fingerprint(value: 0xDEAD_BEEF), readTo: 1234)],
                                                     "/l/\"q\".log": [.init(Fingerprint(value: 1), readTo: 0)]]
        let decoded = try CheckpointCodec.decode(CheckpointCodec.encode(SavedPositions(checkpoints: checkpoints, seen: seen)))
        #expect(decoded.checkpoints.sorted { $0.path < $1.path } == checkpoints.sorted { $0.path < $1.path })
        #expect(decoded.seen == seen)
    }

    /// What a restart after a power loss needs: each checkpoint's earlier positions, and the epochs of the contents
    /// found cut back (apart from the checkpoints: a save may have none of such a content). Both keys are left out
    /// when empty, so a file without them reads as before.
    @Test func anchorsAndEpochsRoundTrip() throws {
        var checkpoint = Checkpoint(path: "/l/app.log", identity: FileIdentity(device: 1, inode: 9), fingerprint: Fingerprint(value: 7),
                                    offset: 900, tailHash: 3)
        checkpoint.anchors = [Checkpoint.Anchor(offset: 600, tailHash: 0xABC), Checkpoint.Anchor(offset: 20, tailHash: 0xFFFF_FFFF_FFFF_FFFF)]
        let saved = SavedPositions(checkpoints: [checkpoint], epochs: [Fingerprint(value: 7): 2, Fingerprint(value: 0xBEEF): 1])
        let text = String(decoding: CheckpointCodec.encode(saved), as: UTF8.self)
        #expect(text.contains(#""anchors":[[600,"0000000000000abc"],[20,"ffffffffffffffff"]]"#))
        #expect(text.contains(#""epochs":{"0000000000000007":2,"000000000000beef":1}"#))
        #expect(try CheckpointCodec.decode(Array(text.utf8)) == saved)
        let plain = String(decoding: CheckpointCodec.encode(SavedPositions(checkpoints: [Checkpoint(path: "/l/a", identity: FileIdentity(device: 1, inode: 2),
            fingerprint: Fingerprint(value: 1), offset: 5, tailHash: 6)])), as: UTF8.self)
        #expect(!plain.contains("anchors") && !plain.contains("epochs"))
    }

    @Test func theDrainedMarkRoundTripsAndOlderFilesWithoutItStillRead() throws {
        var drained = Checkpoint(path: "/l/app.log", identity: FileIdentity(device: 1, inode: 9), fingerprint: Fingerprint(value: 7),
                                 offset: 10, tailHash: 3)
        drained.drained = true
        let text = String(decoding: CheckpointCodec.encode(SavedPositions(checkpoints: [drained])), as: UTF8.self)
        #expect(text.contains(#""drained":true"#))
        #expect(!text.contains("seen"), "nothing seen: no key")
        #expect(try CheckpointCodec.decode(Array(text.utf8)) == SavedPositions(checkpoints: [drained]))
        let old = #"{"version":1,"files":[{"path":"/l/app.log","device":1,"inode":9,"fingerprint":"7","offset":10,"tailHash":"3"}]}"#
        let decoded = try CheckpointCodec.decode(Array(old.utf8))
        #expect(decoded.checkpoints.first?.drained == false)
        #expect(decoded.seen.isEmpty, "a file of an older spytail: nothing known seen")
    }

    /// Where a `startAt: end` file ended when a start could not open it: kept across a restart, the key left out when
    /// there is none.
    @Test func endsAtStartRoundTrip() throws {
        let ends = ["/l/a.log": SavedPositions.EndAtStart(identity: FileIdentity(device: 2049, inode: 77), size: 1_234_567),
                    "/l/\"q\".log": SavedPositions.EndAtStart(identity: FileIdentity(device: 1, inode: 2), size: 0)]
        let saved = SavedPositions(endsAtStart: ends)
        let text = String(decoding: CheckpointCodec.encode(saved), as: UTF8.self)
        #expect(text.contains(#""/l/a.log":{"device":2049,"inode":77,"size":1234567}"#))
        #expect(try CheckpointCodec.decode(Array(text.utf8)) == saved)
        #expect(!String(decoding: CheckpointCodec.encode(SavedPositions()), as: UTF8.self).contains("endsAtStart"))
    }

    @Test(arguments: [
        ("", "invalid JSON"),
        (#"{"version": 1, "files": [], "endsAtStart": []}"#, "endsAtStart: expected an object"),
        (#"{"version": 1, "files": [], "endsAtStart": {"/l/a.log": {"device": 1, "inode": 2}}}"#,
         "endsAtStart[/l/a.log]: expected a device, an inode and a size"),
        (#"{"version": 1, "files": [], "endsAtStart": {"/l/a.log": {"device": 1, "inode": 2, "size": -5}}}"#,
         "endsAtStart[/l/a.log]: expected a device, an inode and a size"),
        (#"{"version": 2, "files": []}"#, "unsupported version"),
        (#"{"version": 1}"#, "files: expected an array"),
        (#"{"version": 1, "files": [{"path": "x"}]}"#, "files[0]: missing or malformed field"),
        (#"{"version": 1, "files": [], "seen": []}"#, "seen: expected an object"),
        (#"{"version": 1, "files": [], "seen": {"/l/a.log": "7"}}"#, "seen[/l/a.log]: expected an array"),
        (#"{"version": 1, "files": [], "seen": {"/l/a.log": ["7", "x"]}}"#, "seen[/l/a.log][1]: expected a fingerprint"),
        (#"{"version": 1, "files": [], "epochs": []}"#, "epochs: expected an object"),
        (#"{"version": 1, "files": [], "epochs": {"7": 0}}"#, "epochs[7]: expected a fingerprint (hex) and a whole number, 1 or more"),
        (#"{"version": 1, "files": [], "epochs": {"xyz": 1}}"#, "epochs[xyz]"),
        (#"{"version": 1, "files": [{"path": "x", "device": 1, "inode": 2, "fingerprint": "7", "offset": 9, "tailHash": "3", "anchors": {}}]}"#,
         "files[0].anchors: expected an array"),
        (#"{"version": 1, "files": [{"path": "x", "device": 1, "inode": 2, "fingerprint": "7", "offset": 9, "tailHash": "3", "anchors": [[4, "a"], [2]]}]}"#,
         "files[0].anchors[1]: expected [offset, \"tail hash (hex)\"]"),
        (#"{"version": 1, "files": [], "seen": {"/l/a.log": ["7@-1"]}}"#, "seen[/l/a.log][0]: expected a fingerprint"),
        (#"{"version": 1, "files": [], "seen": {"/l/a.log": ["7@"]}}"#, "seen[/l/a.log][0]: expected a fingerprint"),
    ])
    func rejectsDamage(_ text: String, _ reason: String) {
        do {
            _ = try CheckpointCodec.decode(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }
}
