import Glibc
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// The machine a simulated run lives on: a real folder, three writers appending numbered lines through
/// descriptors of their own (O_APPEND, as loggers do), and a rotator doing what logrotate and logback do,
/// one system call at a time. It knows where every line went, so it can say which ones the scenario
/// really destroyed, and it queues the inotify events each change makes in the folders the run watches.
///
/// Real files (tmpfs or disk under the temporary folder), not a model of them: the tailer's own reads,
/// fstats and renames are the real ones. What the host decides is only the order of things.
final class SimulatedHost {
    /// How a writer's copies are named, and who rotates it.
    enum Naming: Equatable {
        /// logrotate's numbered copies `a.log.1`, `a.log.2.gz` … in the live folder.
        case numbered
        /// logrotate's `dateext` copies moved to `olddir`: `old/b.log-20261126000001(.gz)`.
        case datedInOlddir
        /// logback's rolled names `c.2026-11-26.<index>.log(.gz)` beside the live file; the app rolls itself.
        case logback
    }

    /// How a rotation treats the live file.
    enum Mode: Equatable { case create, copytruncate }

    /// A rotation's second half, due at a later step (a scheduler may run the tailer in between).
    enum Pending: Equatable {
        /// copytruncate: the copy is made; the truncate of the live file comes next.
        case truncate
        /// compress without delaycompress: the fresh copy at `path` is gzipped next.
        case gzip(path: String)
    }

    struct Writer {
        let name: String
        let naming: Naming
        let mode: Mode
        let compress: Bool
        let delayCompress: Bool
        var fd: Int32 = -1
        /// Where the file behind `fd` is now (nil: unlinked; what is written to it is lost).
        var path: String?
        var next = 1
        var rotations = 0
        var pending: Pending?
        /// The writer still writes to a rotated file: it reopens its live path at a later step.
        var stale = false
        /// A line written in part: the bytes still to come (its next write, reopen or rotation writes them first).
        var half: (line: Line, rest: [UInt8])?
        /// Times the writer's container restarted: each restart writes to a new live file (`a-1.log`, `a-2.log` …,
        /// as a container's `0.log`, `1.log` …), found by the run while it runs.
        var restarts = 0
        var live: String { restarts == 0 ? "logs/\(name).log" : "logs/\(name)-\(restarts).log" }
    }

    let root: String
    private(set) var writers: [Writer] = []
    /// Lines by (writer, seq): the file generation each was written to, for the order check.
    private(set) var generationOf: [Line: Int] = [:]
    /// How the scenario destroyed a line (such a line may be missing).
    enum Loss {
        /// Written to a file already unlinked: no reader could ever see it.
        case neverReadable
        /// In a rotated copy deleted (logrotate's `rotate N`) or a file gzipped away while still written.
        case deleted
        /// Written to the live file between copytruncate's copy and its truncate.
        case truncated
        /// Written to a file but not yet written back to the disk when the power went.
        case powerCut
        /// Written after a power cut, where the lines cut away had been, to a file that a rotation later copied or
        /// compressed while it held less than the durable checkpoint had read: the restart finds the copy shorter
        /// than the checkpoint's offset, as copytruncate's copy is when the app wrote on into the live file and
        /// that was read before the truncate, and reads nothing of it. A known limit: nothing tells the two apart
        /// unless an earlier position of the content within the copy shows other bytes. (A copy holding the offset
        /// is checked against the checkpoint's bytes and read on from an anchor; a line the run was told of must
        /// still be delivered.)
        case cutThenCopied
    }

    /// Lines the scenario destroyed before anyone could be sure to have read them, and how.
    private(set) var destroyed: [Line: Loss] = [:]
    /// The first part of each line written in two: what a reader saw of it in between.
    private(set) var halfText: [Line: String] = [:]
    /// Lines each file holds now, by path relative to `root` (a copy holds its source's lines).
    private var lines: [String: [Line]] = [:]
    /// Bytes of each file the disk holds for sure (written back from the page cache), by path: a power loss cuts
    /// the files the writers append to, and copytruncate's plain copies, back to it. Renames and truncates count
    /// as on the disk at once (the journal commits names and sizes), and so do gzip copies (modelling half-written
    /// ones would only test gzip's error path).
    private var durable: [String: Int] = [:]
    /// Generation of each path's file (a new file or a truncate starts a new one).
    private var generation: [String: Int] = [:]
    private var generations = 0
    /// inotify events made since the last delivery, in order, each with the line its write carried.
    private(set) var queued: [(event: WatchEvent, path: String, line: Line?)] = []
    /// Lines whose write event was handed to a run that was recording: it was told to read them, so they
    /// must be delivered, destroyed or not.
    private(set) var told = Set<Line>()
    /// The folders the run watches now (absolute); none while it is down.
    var watched: () -> Set<String> = { [] }
    /// How many rotated copies logrotate keeps.
    static let keep = 3

    struct Line: Hashable, Comparable, CustomStringConvertible {
        let writer: Int
        let seq: Int
        static func < (a: Line, b: Line) -> Bool { (a.writer, a.seq) < (b.writer, b.seq) }
        var description: String { "w\(writer)#\(seq)" }
    }

    init(root: String, modes: [(Mode, compress: Bool, delay: Bool)]) {
        self.root = root
        for folder in ["logs", "logs/old", "out"] { mkdir(abs(folder), 0o755) }
        let namings: [Naming] = [.numbered, .datedInOlddir, .logback]
        for (i, naming) in namings.enumerated() {
            let (mode, compress, delay) = modes[i]
            var writer = Writer(name: ["a", "b", "c"][i], naming: naming, mode: naming == .logback ? .create : mode,
                                compress: compress, delayCompress: naming == .logback ? false : delay)
            writer.fd = open(abs(writer.live), O_WRONLY | O_CREAT | O_APPEND, 0o644)
            writer.path = writer.live
            writers.append(writer)
            startGeneration(writer.live)
        }
    }

    deinit { for writer in writers { close(writer.fd) } }

    func abs(_ relative: String) -> String { "\(root)/\(relative)" }

    /// Every line written so far.
    var written: [Line] { writers.indices.flatMap { w in (1..<writers[w].next).map { Line(writer: w, seq: $0) } } }

    /// The config the run is started with; `delivers`: with a second output acknowledged later, which the
    /// simulator opens in place of the syslog client (`SimulatedDestination`).
    /// The run's config. Its first output is the output file on the simulated disk (`SimulatedDisk`, opened by
    /// `SimulatedOpener` in place of a `file` output: the simulator sees its syncs).
    func config(delivers: Bool) -> String {
        let second = delivers ? #", {"type": "syslog", "address": "127.0.0.1:514"}"# : ""
        return #"""
        {"sources": [{"name": "a", "include": ["logs/a.log", "logs/a-*.log"]},
                     {"name": "b", "include": ["logs/b.log"], "olddir": "old"},
                     {"name": "c", "include": ["logs/c.log"], "rotatedPattern": "c\\.(?<date>\\d{4}-\\d\\d-\\d\\d)\\.(?<index>\\d+)\\.log"}],
         "tail": {"rotateWaitMs": 1000, "maxOpenFiles": 8, "syncIntervalMs": 500},
         "outputs": [{"type": "syslog", "address": "127.0.0.1:601"}\#(second)]}
        """#
    }

    // MARK: writing

    /// `count` lines appended by writer `w`, one write(2) each.
    func write(_ w: Int, count: Int) {
        finishHalf(w)
        for _ in 0..<count {
            let line = Line(writer: w, seq: writers[w].next)
            writers[w].next += 1
            let text = text(of: line)
            _ = text.withUnsafeBytes { Glibc.write(writers[w].fd, $0.baseAddress, $0.count) }
            wrote(line, by: w)
        }
    }

    /// The first `bytes` of the writer's next line, never its newline (a logger flushing a full buffer mid-line):
    /// the file ends inside a line until the writer's next write, reopen or rotation writes the rest. The line
    /// counts as written to the file only then (nothing to tell the run before).
    func writeHalf(_ w: Int, bytes: Int) {
        finishHalf(w)
        guard let path = writers[w].path else { return write(w, count: 1) }  // into an unlinked file: lost whole
        let line = Line(writer: w, seq: writers[w].next)
        writers[w].next += 1
        let text = text(of: line)
        let first = min(bytes, text.count - 1)
        _ = text.withUnsafeBytes { Glibc.write(writers[w].fd, $0.baseAddress, first) }
        writers[w].half = (line, Array(text[first...]))
        halfText[line] = String(decoding: text[..<first], as: UTF8.self)
        event(path, .modified)
    }

    /// The rest of the writer's half-written line, if any.
    private func finishHalf(_ w: Int) {
        guard let (line, rest) = writers[w].half else { return }
        writers[w].half = nil
        _ = rest.withUnsafeBytes { Glibc.write(writers[w].fd, $0.baseAddress, $0.count) }
        wrote(line, by: w)
    }

    /// Books `line`, just written whole by writer `w`, in the file it went to.
    private func wrote(_ line: Line, by w: Int) {
        guard let path = writers[w].path else {
            destroyed[line] = .neverReadable  // into an unlinked file: nobody can read it any more
            return
        }
        if let generation = generation[path], writtenAfterCut[generation] != nil { writtenAfterCut[generation]!.lines.append(line) }
        lines[path, default: []].append(line)
        generationOf[line] = generation[path]
        event(path, .modified, line: line)
    }

    /// Bytes of a half-written line at the end of `path`.
    private func halfBytes(in path: String) -> Int {
        writers.lazy.filter { $0.path == path }.compactMap { $0.half.map { self.text(of: $0.line).count - $0.rest.count } }.first ?? 0
    }

    /// The bytes writer `line.writer` writes for `line`.
    private func text(of line: Line) -> [UInt8] { Array(Self.text(of: line, writer: writers[line.writer].name).utf8) }

    /// The text the writer named `name` writes for `line`, newline included.
    static func text(of line: Line, writer name: String) -> String {
        "\(name) seq=\(line.seq) \(String(repeating: "x", count: line.seq % 37))\n"
    }

    /// The kernel writes the page cache back: every file's bytes are on the disk now, but for a half-written
    /// line's (modelled so: a power loss takes it with its writer; its first bytes left on the disk would run
    /// into the next line the restarted app writes).
    func writeBack() {
        for path in lines.keys { durable[path] = size(path) - halfBytes(in: path) }
    }

    /// A file a power loss cut back: the lines it lost, the bytes it kept, and the fingerprint of its content
    /// (nil: it kept no whole first line, so what is written next is another content).
    struct Cut {
        var lines: [Line]
        var keptBytes: Int
        var fingerprint: Fingerprint?
    }

    /// The power went: each file a writer appends to loses what was not written back, whole lines (the size the
    /// journal kept is one some write of a whole line left; a half-written line goes with its writer). The writers
    /// (their apps) start again and open their live paths.
    func powerCut() -> [Cut] {
        var cuts: [Cut] = []
        for w in writers.indices {
            guard let (line, _) = writers[w].half else { continue }
            destroyed[line] = .powerCut  // the app died inside it; its first bytes were never written back
            writers[w].half = nil
        }
        // The files the writers append to, and copytruncate's plain copies (written, not yet written back).
        let cutPaths = Set(writers.compactMap(\.path) + lines.keys.filter { !$0.hasSuffix(".gz") && (durable[$0] ?? 0) < size($0) })
        for path in cutPaths.sorted() {
            guard let held = lines[path] else { continue }
            let keep = durable[path] ?? 0
            guard size(path) > keep else { continue }
            var kept = 0, keptBytes = 0
            while kept < held.count, keptBytes + text(of: held[kept]).count <= keep {
                keptBytes += text(of: held[kept]).count
                kept += 1
            }
            truncate(abs(path), off_t(keptBytes))
            durable[path] = keptBytes
            for line in held[kept...] where destroyed[line] == nil { destroyed[line] = .powerCut }
            let head = kept > 0 ? text(of: held[0]) : []
            cuts.append(Cut(lines: Array(held[kept...]), keptBytes: keptBytes,
                            fingerprint: head.withUnsafeBufferPointer { Fingerprint.of(head: $0, complete: false) }))
            lines[path] = Array(held[..<kept])
        }
        for w in writers.indices {
            writers[w].stale = true
            reopen(w)
        }
        return cuts
    }

    /// Lines a power loss cut from a file beyond what any checkpoint on the disk had read of it: a record of
    /// theirs may be out (a destination acknowledged it, an output synced it before the checkpoint that counts
    /// it was), yet nothing tells a restart that the file was cut, and the line written next at the same offset
    /// takes the same id. (Where a checkpoint had read past the cut, the restart reads on in a new epoch of ids.)
    private(set) var cutUnknown = Set<Line>()

    /// File generations a power loss cut back behind a durable checkpoint's offset: the restart reads on from an
    /// earlier position in a new epoch of ids, so the lines between that position and the cut come again with
    /// other ids.
    private(set) var cutKnown = Set<Int>()

    /// Per file generation cut back by a power loss behind a durable checkpoint: the lines written to it since, and
    /// the checkpoint's offset.
    private var writtenAfterCut: [Int: (lines: [Line], checkpoint: Int64)] = [:]

    /// A rotation copies or compresses `path`: lines written past a cut while the run was down are lost to it when
    /// it holds less than the checkpoint had read.
    private func copiedAway(_ path: String) {
        guard let generation = generation[path], let after = writtenAfterCut[generation], Int64(size(path)) < after.checkpoint else { return }
        for line in after.lines where destroyed[line] == nil { destroyed[line] = .cutThenCopied }
    }

    /// A power loss cut a file back; `checkpoint`: how far the durable checkpoints had read its content.
    func cut(_ cut: Cut, checkpoint: Int64) {
        guard let line = cut.lines.first, let generation = generationOf[line] else { return }
        if checkpoint > Int64(cut.keptBytes) {
            cutKnown.insert(generation)
            writtenAfterCut[generation] = ([], checkpoint)
        } else {
            cutUnknown.formUnion(cut.lines)
        }
    }

    private func size(_ path: String) -> Int { Syscall.stat(abs(path)).map { Int($0.st_size) } ?? 0 }

    /// The writer opens its live path again (a lazily reopening handler's next emit).
    func reopen(_ w: Int) {
        finishHalf(w)
        guard writers[w].stale else { return }
        close(writers[w].fd)
        if let old = writers[w].path { event(old, .arrived) }  // IN_CLOSE_WRITE
        let live = writers[w].live
        let existed = access(abs(live), F_OK) == 0
        writers[w].fd = open(abs(live), O_WRONLY | O_CREAT | O_APPEND, 0o644)
        writers[w].path = live
        writers[w].stale = false
        if !existed {
            startGeneration(live)
            event(live, .entries)
        }
    }

    /// Writer `w`'s container restarts (the numbered writer only): its rotation finished and its line finished, it
    /// closes its file and writes to a new live file from now on. The old one stays, written no more, as a
    /// restarted container's earlier log does.
    func restart(_ w: Int) {
        guard writers[w].naming == .numbered else { return }
        finish(w)  // and the half-written line with it
        close(writers[w].fd)
        if let old = writers[w].path { event(old, .arrived) }  // IN_CLOSE_WRITE
        writers[w].restarts += 1
        let live = writers[w].live
        writers[w].fd = open(abs(live), O_WRONLY | O_CREAT | O_APPEND, 0o644)
        writers[w].path = live
        writers[w].stale = false
        lines[live] = []
        durable[live] = 0
        startGeneration(live)
        event(live, .entries)
    }

    // MARK: rotating

    /// The first half of a rotation: the older copies shift (and the oldest goes), then the live file is
    /// renamed (create) or copied (copytruncate); what needs a later step is left pending.
    func rotate(_ w: Int) {
        finishHalf(w)
        guard writers[w].pending == nil else { return finish(w) }
        reopen(w)  // the previous rotation's postrotate (HUP) has reached the writer by now
        writers[w].rotations += 1
        let writer = writers[w]
        let copy: String
        switch writer.naming {
        case .numbered:
            shiftNumbered(w)
            copy = "\(writer.live).1"
        case .datedInOlddir:
            copy = "logs/old/\(writer.name).log-\(20261126_000000 + writer.rotations)"
            dropOldest(of: w)
        case .logback:
            copy = "logs/\(writer.name).2026-11-26.\(writer.rotations).log"
            dropOldest(of: w)
        }
        switch writer.mode {
        case .create:
            rename(writer.live, copy)
            if writer.naming == .logback {
                writers[w].stale = true
                reopen(w)  // logback rolls inside the app: the next line goes to the new file
            } else {
                createEmpty(writer.live)  // logrotate's `create`; the writer reopens at a later step
                writers[w].stale = true
            }
            if writer.compress && !writer.delayCompress { writers[w].pending = .gzip(path: copy) }
        case .copytruncate:
            copyFile(writer.live, to: copy)
            writers[w].pending = .truncate
        }
    }

    /// The second half of a pending rotation, if any.
    func finish(_ w: Int) {
        finishHalf(w)
        guard let pending = writers[w].pending else { return }
        writers[w].pending = nil
        switch pending {
        case .truncate:
            let live = writers[w].live
            // Lines written between the copy and the truncate are in neither file: copytruncate's window.
            let copied = Set(lines[copyName(of: w)] ?? [])
            for line in lines[live] ?? [] where !copied.contains(line) { destroyed[line] = .truncated }
            truncate(abs(live), 0)
            lines[live] = []
            durable[live] = 0
            startGeneration(live)
            event(live, .modified)
            if writers[w].compress && !writers[w].delayCompress { gzip(copyName(of: w)) }
        case .gzip(let path):
            gzip(path)
        }
    }

    /// The newest copy's name (where the last rotation put the live file's content).
    private func copyName(of w: Int) -> String {
        let writer = writers[w]
        switch writer.naming {
        case .numbered: return "\(writer.live).1"
        case .datedInOlddir: return "logs/old/\(writer.name).log-\(20261126_000000 + writer.rotations)"
        case .logback: return "logs/\(writer.name).2026-11-26.\(writer.rotations).log"
        }
    }

    /// `a.log.3(.gz)` goes, `.2` → `.3`, `.1` → `.2` (gzipped on the way with delaycompress).
    private func shiftNumbered(_ w: Int) {
        let live = writers[w].live
        for suffix in ["", ".gz"] where exists("\(live).\(Self.keep)\(suffix)") { remove("\(live).\(Self.keep)\(suffix)") }
        for n in stride(from: Self.keep - 1, through: 1, by: -1) {
            for suffix in ["", ".gz"] where exists("\(live).\(n)\(suffix)") { rename("\(live).\(n)\(suffix)", "\(live).\(n + 1)\(suffix)") }
        }
        if writers[w].compress && writers[w].delayCompress && exists("\(live).2") { gzip("\(live).2") }
    }

    /// Dated and logback copies: the one `keep` rotations back goes (and the delayed gzip of the previous one).
    private func dropOldest(of w: Int) {
        let writer = writers[w]
        let old = writer.rotations - Self.keep
        let previous = writer.rotations - 1
        func name(_ k: Int) -> String {
            writer.naming == .logback ? "logs/\(writer.name).2026-11-26.\(k).log" : "logs/old/\(writer.name).log-\(20261126_000000 + k)"
        }
        if old >= 1 { for suffix in ["", ".gz"] where exists(name(old) + suffix) { remove(name(old) + suffix) } }
        if writer.compress && writer.delayCompress && previous >= 1 && exists(name(previous)) { gzip(name(previous)) }
    }

    // MARK: file operations, each with its events and its bookkeeping

    private func exists(_ path: String) -> Bool { access(abs(path), F_OK) == 0 }

    private func startGeneration(_ path: String) {
        generations += 1
        generation[path] = generations
    }

    private func rename(_ from: String, _ to: String) {
        Glibc.rename(abs(from), abs(to))
        lines[to] = lines.removeValue(forKey: from)
        generation[to] = generation.removeValue(forKey: from)
        durable[to] = durable.removeValue(forKey: from)
        for w in writers.indices where writers[w].path == from { writers[w].path = to }
        event(from, .entries)
        event(to, .arrived)
    }

    private func remove(_ path: String) {
        unlink(abs(path))
        for line in lines.removeValue(forKey: path) ?? [] where destroyed[line] == nil { destroyed[line] = .deleted }
        generation[path] = nil
        durable[path] = nil
        for w in writers.indices where writers[w].path == path { writers[w].path = nil }
        event(path, .entries)
    }

    private func createEmpty(_ path: String) {
        close(open(abs(path), O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        lines[path] = []
        durable[path] = 0
        startGeneration(path)
        event(path, .entries)
        event(path, .arrived)
    }

    private func copyFile(_ from: String, to: String) {
        copiedAway(from)
        let bytes = FileBytes.read(abs(from)) ?? []
        writeWhole(to, bytes)
        durable[to] = 0  // on the disk at the next write-back: a power loss before it takes the copy's bytes
        lines[to] = lines[from] ?? []
        generation[to] = generation[from]
    }

    /// gzip: `path.gz` written and closed, then `path` unlinked (lines written to it after this are lost).
    private func gzip(_ path: String) {
        copiedAway(path)
        writeWhole(path + ".gz", Gzip.member(FileBytes.read(abs(path)) ?? []))
        lines[path + ".gz"] = lines[path] ?? []
        generation[path + ".gz"] = generation[path]
        lines[path] = []  // its content lives on in the .gz
        remove(path)
    }

    private func writeWhole(_ path: String, _ bytes: [UInt8]) {
        let fd = open(abs(path), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        event(path, .entries)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if !bytes.isEmpty { event(path, .modified) }
        close(fd)
        durable[path] = bytes.count
        event(path, .arrived)
    }

    // MARK: inotify

    /// The event inotify would queue for `path` (relative), if its folder is watched now.
    private func event(_ path: String, _ kind: WatchEvent.Kind, line: Line? = nil) {
        let full = abs(path)
        let slash = full.lastIndex(of: "/")!
        let directory = String(full[..<slash]), name = String(full[full.index(after: slash)...])
        guard watched().contains(directory) else { return }
        queued.append((.changed(directory: directory, name: name, kind: kind), path, line))
    }

    /// The first `count` queued events, taken off the queue; `recording`: the run they go to is recording.
    func take(_ count: Int, recording: Bool) -> [WatchEvent] {
        let taken = queued.prefix(count)
        queued.removeFirst(taken.count)
        // Told: the event names the file the line is in (inotify names a file as it was called when written).
        if recording {
            for entry in taken {
                if let line = entry.line, lines[entry.path]?.contains(line) == true { told.insert(line) }
            }
        }
        return taken.map(\.event)
    }

    /// The lines the file at `path` (absolute) holds now.
    func lines(at path: String) -> [Line] {
        guard path.hasPrefix(root + "/") else { return [] }
        return lines[String(path.dropFirst(root.count + 1))] ?? []
    }

    /// The files (relative paths) that hold `line` now (a copy and its live file, in copytruncate's window).
    func paths(holding line: Line) -> [String] { lines.filter { $0.value.contains(line) }.map(\.key) }

    /// Lines no longer counted as told (destroyed while the run waited inside the step it was told in).
    func untell(_ lines: some Sequence<Line>) { told.subtract(lines) }

    /// inotify's queue overflowed: what was queued is lost.
    func dropQueued() { queued.removeAll() }
}
