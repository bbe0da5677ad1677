/// Rebuilds an application's lines from a container runtime's log: reads each physical line's envelope
/// (CRI or Docker json-file), joins the parts of a long line (`P` … `F`, a Docker `log` without `\n`) and,
/// with a multiline rule, the lines of one entry — each per stream, since stdout and stderr interleave in one
/// file — and hands out one `Line` per entry: the text, then the envelope (`ContainerShape`).
///
/// **Resuming.** A checkpoint saves one offset, `resumeOffset`, and a restart reads again from there, so
/// everything handed out must lie before it and nothing after it may have been handed out. An entry is
/// therefore handed out only once every part of it lies before the start of everything still open (the other
/// stream's unfinished line or entry): entries go out in the order they start, and an entry whose parts
/// straddle another stream's open line waits for it. What waits is bounded: past `heldLimit` bytes, or at the
/// multiline idle timeout (`flush`), the open lines and entries are closed as they are.
///
/// A joiner belongs to one file's reader and is not copied to be used apart: a copy shares its Docker reader and
/// its held lines' buffers (`HeldLine`), which the reader and the held lines exchange.
public struct ContainerLineJoiner {
    /// An application line or entry being put together, or one complete and waiting to go out.
    struct Building {
        var text: [UInt8] = []
        var offset: Int64 = 0
        /// Offset of its last physical line.
        var lastOffset: Int64 = 0
        var headLength: Int?
        var lineCount = 1
        var truncated = false
        var stream = ContainerStream.stdout
        /// Its first part's envelope, written after the text (`ContainerEnvelope`); empty for a refused line.
        var envelope: [UInt8] = []
        /// The physical line was not in the runtime's format.
        var problem: ParseProblem?

        var byteCount: Int { text.count + envelope.count }

        /// Takes `line`, a whole line that continues this entry, as its next line.
        mutating func join(_ line: Building) {
            if headLength == nil { headLength = text.count }
            text.append(0x0A)
            text.append(contentsOf: line.text)
            lineCount += 1
            lastOffset = line.lastOffset
            truncated = truncated || line.truncated
        }

        /// How it goes out: its text, then its envelope (none for a refused line).
        var shape: ContainerShape {
            ContainerShape(headLength: headLength ?? text.count, envelopeStart: problem == nil ? text.count : nil, lineCount: lineCount,
                           problem: problem)
        }
    }

    public let format: ContainerFormat
    let rule: ContinuationRule
    let maxLineBytes: Int
    /// Bytes of complete entries that may wait for another stream before they are closed by force: as much as one
    /// entry may hold (`ContinuationRule.maxEntryBytes`).
    let heldLimit: Int
    /// Docker's reader (its decode buffer and JSON scanner); CRI lines need none. A node has a joiner per
    /// container file: a thousand scanners nobody used were 2.8 MB.
    private let reader: ContainerLineReader?
    /// The same reader, called without a retain and a release per line (as a stored class reference read in a
    /// mutating method is): `reader` keeps it alive as long as this joiner.
    private let readerRef: Unmanaged<ContainerLineReader>?
    /// Per stream: the line whose parts are arriving, and (with a multiline rule) the entry it may join.
    private var parts: [Building?] = [nil, nil]
    private var entries: [Building?] = [nil, nil]
    /// Per stream, in the common case (whole lines, the other stream quiet): the open entry while it is one
    /// line, written as it will go out. It never coexists with its stream's `entries` entry; every other path
    /// first makes it one (`putTogetherHeldLines`). It may coexist with its stream's `parts` (a long line after it).
    private var held = (HeldLine(), HeldLine())
    /// Complete entries in the order they start, waiting to go out.
    private var done: [Building] = []
    private var heldBytes = 0
    /// The line handed out: text then envelope.
    private var out: [UInt8] = []
    /// The common cases take shortcuts (`emitDirectly`, `addToSingleStream`, `addPartToSingleStream`); tests turn
    /// them off to hold them to the general path, step by step.
    var takesShortcuts = true

    public init(format: ContainerFormat, continuation: Regex?, maxLineBytes: Int) {
        self.format = format
        rule = ContinuationRule(continuation, maxLineBytes: maxLineBytes)
        self.maxLineBytes = maxLineBytes
        heldLimit = ContinuationRule.maxEntryBytes(maxLineBytes: maxLineBytes)
        reader = format == .docker ? ContainerLineReader(format: format) : nil
        readerRef = reader.map { Unmanaged.passUnretained($0) }
    }

    /// Something is open or waits: the multiline idle timeout applies.
    public var hasPending: Bool {
        parts[0] != nil || parts[1] != nil || entries[0] != nil || entries[1] != nil || !done.isEmpty || held.0.isHeld || held.1.isHeld
    }

    /// Where a restart must read again from: the start of the first entry not handed out (nil: none).
    public var pendingOffset: Int64? {
        var least = done.first?.offset
        for open in [parts[0]?.offset, parts[1]?.offset, entries[0]?.offset, entries[1]?.offset, heldOffset(0), heldOffset(1)] {
            if let open, least == nil || open < least! { least = open }
        }
        return least
    }

    private func heldOffset(_ s: Int) -> Int64? {
        guard isHeld(s) else { return nil }
        return s == 0 ? held.0.offset : held.1.offset
    }

    private func isHeld(_ s: Int) -> Bool { s == 0 ? held.0.isHeld : held.1.isHeld }

    /// Bytes of the text of stream `s`'s open entry, held or put together (nil: none is open).
    private func openEntryBytes(_ s: Int) -> Int? {
        if isHeld(s) { return s == 0 ? held.0.textLength : held.1.textLength }
        return entries[s]?.text.count
    }

    private mutating func withHeld<R, E: Error>(_ s: Int, _ body: (inout HeldLine) throws(E) -> R) throws(E) -> R {
        s == 0 ? try body(&held.0) : try body(&held.1)
    }

    /// Takes one physical line; hands out every entry it completes that may go out.
    public mutating func add<E: Error>(_ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        var read = ContainerLine.unread
        // A Docker line as the driver writes it, read without a throwing call around it (the common case).
        let readAsWritten = readerRef?._withUnsafeGuaranteedRef { $0.readAsWritten(line.bytes, into: &read) } ?? false
        if readAsWritten { return try addRead(read, line, emit) }
        try readOtherwise(line, emit)
    }

    /// A line not read as the driver writes it: read the general way (CRI needs no reader), or refused.
    private mutating func readOtherwise<E: Error>(_ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        var read = ContainerLine.unread
        do throws(ParseProblem) {
            if let readerRef {
                try readerRef._withUnsafeGuaranteedRef { reader in
                    Result { () throws(ParseProblem) in try reader.readAfterAsWritten(line.bytes, into: &read) }
                }.get()
            } else {
                try ContainerLineReader.readCRI(line.bytes, into: &read)
            }
        } catch {
            putTogetherHeldLines()
            var refused = Building(offset: line.offset, lastOffset: line.offset, truncated: line.truncated, problem: error)
            refused.text.append(contentsOf: line.bytes)
            complete(refused)
            return try release(emit)
        }
        try addRead(read, line, emit)
    }

    /// Takes a physical line whose envelope was read.
    private mutating func addRead<E: Error>(_ read: ContainerLine, _ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        let s = read.stream.rawValue
        if takesShortcuts && done.isEmpty && parts[1 - s] == nil && entries[1 - s] == nil && !isHeld(1 - s) {
            if read.partial || parts[s] != nil { return try addPartToSingleStream(read, line, emit) }
            if !rule.joinsLines { return try emitDirectly(read, line, emit) }
            return try addToSingleStream(read, line, emit)
        }
        putTogetherHeldLines()
        if var open = parts[s] {
            parts[s] = nil
            Self.addPart(read, line, to: &open, maxLineBytes: maxLineBytes)
            if read.partial {
                parts[s] = open
                return
            }
            return try finishLine(open, emit)
        }
        let started = startLine(read, line)
        if read.partial {
            parts[s] = started
            return
        }
        try finishLine(started, emit)
    }

    /// Closes every open line and entry as it is and hands everything out (the idle timeout, the end of input).
    public mutating func flush<E: Error>(_ emit: (Line) throws(E) -> Void) throws(E) {
        closeOpenEntries()
        try release(emit)
    }

    // MARK: putting entries together

    /// The common case: a whole line, nothing open or waiting, no multiline rule.
    private mutating func emitDirectly<E: Error>(_ read: ContainerLine, _ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        let s = read.stream.rawValue
        let (maxLineBytes, reader) = (maxLineBytes, readerRef)
        try withHeld(s) { (held) throws(E) in
            held.hold(read, offset: line.offset, truncated: line.truncated, maxLineBytes: maxLineBytes, decodedBy: reader)
            defer { held.release() }
            try held.withLine(emit)
        }
    }

    /// The common case with a multiline rule: a whole line, only this stream's entry open. It joins that entry,
    /// or the entry goes out at once (nothing else is open or waits) and the line is held as the next one. An
    /// entry of several lines is worked on in place (`entries[s]!`): a copy of it costs a retain and a release
    /// of each buffer.
    private mutating func addToSingleStream<E: Error>(_ read: ContainerLine, _ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        let s = read.stream.rawValue
        if let open = openEntryBytes(s), rule.continues(Line(bytes: read.content, offset: line.offset), entryBytes: open) {
            putTogetherHeldLine(s)  // a rare continuation line: the entry is put together the general way
            if entries[s]!.headLength == nil { entries[s]!.headLength = entries[s]!.text.count }
            entries[s]!.text.append(0x0A)
            var cut = false
            appendLine(read.content, to: &entries[s]!.text, truncated: &cut)
            entries[s]!.lineCount += 1
            entries[s]!.lastOffset = line.offset
            entries[s]!.truncated = entries[s]!.truncated || cut || line.truncated
            return
        }
        try sendOpenEntry(s, emit)
        let (maxLineBytes, reader) = (maxLineBytes, readerRef)
        withHeld(s) { $0.hold(read, offset: line.offset, truncated: line.truncated, maxLineBytes: maxLineBytes, decodedBy: reader) }
    }

    /// Hands out stream `s`'s open entry (its held line, or the entry put together), if any. Released only once
    /// out: an output that throws leaves it open, as `send` leaves an entry waiting.
    @inline(__always)
    private mutating func sendOpenEntry<E: Error>(_ s: Int, _ emit: (Line) throws(E) -> Void) throws(E) {
        if isHeld(s) {
            try withHeld(s) { (held) throws(E) in
                try held.withLine(emit)
                held.release()
            }
        } else if entries[s] != nil {
            try Self.sendInPlace(&entries[s]!, emit)
            entries[s] = nil
        }
    }

    /// A part of a long line, or its last part, with only this stream open (a long line in a quiet container): the
    /// parts are joined in place in `parts[s]` while this stream's held line or open entry, which lies before them,
    /// waits for the whole line to say whether it continues. Then the whole line joins that entry, or the entry goes
    /// out and the line is the open one. The general path ends in the same state, by way of `done` and copies.
    private mutating func addPartToSingleStream<E: Error>(_ read: ContainerLine, _ line: Line, _ emit: (Line) throws(E) -> Void) throws(E) {
        let s = read.stream.rawValue
        guard parts[s] != nil else {
            parts[s] = startLine(read, line)
            return
        }
        Self.addPart(read, line, to: &parts[s]!, maxLineBytes: maxLineBytes)
        if read.partial { return }
        var whole = parts[s].take()!
        guard rule.joinsLines else {
            do throws(E) { try Self.sendInPlace(&whole, emit) } catch { complete(whole); throw error }
            return
        }
        let continues = whole.text.withUnsafeBufferPointer { rule.continues(Line(bytes: $0, offset: whole.offset), entryBytes: openEntryBytes(s)) }
        if continues {
            putTogetherHeldLine(s)
            entries[s]!.join(whole)
            return
        }
        do throws(E) {
            try sendOpenEntry(s, emit)
        } catch {
            // As the general path leaves it: the open entry waits to go out, the whole line is the open entry.
            putTogetherHeldLine(s)
            if let previous = entries[s] { complete(previous) }
            entries[s] = whole
            throw error
        }
        entries[s] = whole
    }

    /// A line's first part (or the whole line): its text, cut at the line limit, then its envelope.
    private func startLine(_ read: ContainerLine, _ line: Line) -> Building {
        var started = Building(offset: line.offset, lastOffset: line.offset, truncated: line.truncated, stream: read.stream)
        Self.addPart(read, line, to: &started, maxLineBytes: maxLineBytes)
        ContainerEnvelope.append(time: read.time, stream: read.stream, attrs: read.attrs, to: &started.envelope)
        return started
    }

    /// The next part of the line `open`, cut where the line would pass the line limit. Static: an instance method
    /// given `&parts[s]!` would have the whole joiner copied for the call (its arrays retained and released).
    private static func addPart(_ read: ContainerLine, _ line: Line, to open: inout Building, maxLineBytes: Int) {
        append(read.content, to: &open.text, room: maxLineBytes - open.text.count, truncated: &open.truncated)
        open.lastOffset = line.offset
        open.truncated = open.truncated || line.truncated
    }

    /// Makes every held line an open entry (`entries`), for the paths that put entries together the general way.
    private mutating func putTogetherHeldLines() {
        putTogetherHeldLine(0)
        putTogetherHeldLine(1)
    }

    private mutating func putTogetherHeldLine(_ s: Int) {
        guard isHeld(s) else { return }
        assert(entries[s] == nil, "a held line is its stream's only open entry")
        let entry = withHeld(s) { held in
            defer { held.release() }
            return Building(text: held.text, offset: held.offset, lastOffset: held.offset, truncated: held.truncated,
                            stream: ContainerStream(rawValue: s)!, envelope: held.envelope)
        }
        entries[s] = entry
    }

    /// A line is whole: it joins its stream's entry, or closes it and starts the next one.
    private mutating func finishLine<E: Error>(_ line: Building, _ emit: (Line) throws(E) -> Void) throws(E) {
        joinOrComplete(line)
        try release(emit)
    }

    private mutating func joinOrComplete(_ line: Building) {
        guard rule.joinsLines else { return complete(line) }
        let s = line.stream.rawValue
        let continues = line.text.withUnsafeBufferPointer { rule.continues(Line(bytes: $0, offset: line.offset), entryBytes: entries[s]?.text.count) }
        if continues {
            entries[s]!.join(line)  // in place: the text is appended to, not copied
            return
        }
        if let previous = entries[s] { complete(previous) }
        entries[s] = line
    }

    /// Puts a complete entry in line to go out, in the order entries start.
    private mutating func complete(_ entry: Building) {
        let at = done.lastIndex { $0.offset < entry.offset }.map { $0 + 1 } ?? 0
        done.insert(entry, at: at)
        heldBytes += entry.byteCount
    }

    /// Hands out the longest run of waiting entries (in the order they start) whose parts all lie before
    /// whatever is left: the open lines and entries, and the waiting entries after the run. A restart from the
    /// first of those then reads no part of what went out.
    private mutating func release<E: Error>(_ emit: (Line) throws(E) -> Void) throws(E) {
        if heldBytes > heldLimit { closeOpenEntries() }
        guard !done.isEmpty else { return }
        let open = openStart() ?? .max
        var last = Int64.min, count = 0
        for k in done.indices {
            last = max(last, done[k].lastOffset)
            if last < min(open, k + 1 < done.count ? done[k + 1].offset : .max) { count = k + 1 }
        }
        guard count > 0 else { return }
        var sent = 0
        defer { done.removeFirst(sent) }  // what went out, also when an output throws part-way
        for entry in done[..<count] {
            try send(entry, emit)
            heldBytes -= entry.byteCount
            sent += 1
        }
    }

    /// Where the first open line or entry starts.
    private func openStart() -> Int64? {
        var least: Int64?
        for s in 0..<2 {
            for open in [parts[s]?.offset, entries[s]?.offset, heldOffset(s)] {
                if let open, least == nil || open < least! { least = open }
            }
        }
        return least
    }

    /// Closes every open line and entry as it is: the idle timeout, the end of input, or too much waiting on them.
    private mutating func closeOpenEntries() {
        putTogetherHeldLines()
        for s in 0..<2 {
            if let open = parts[s] { parts[s] = nil; joinOrComplete(open) }
        }
        for s in 0..<2 {
            if let open = entries[s] {
                entries[s] = nil
                complete(open)
            }
        }
    }

    private mutating func send<E: Error>(_ entry: Building, _ emit: (Line) throws(E) -> Void) throws(E) {
        var entry = entry
        try Self.send(&entry, through: &out, emit)
    }

    /// Hands out `entry`: its text then its envelope, laid out in `out`.
    private static func send<E: Error>(_ entry: inout Building, through out: inout [UInt8], _ emit: (Line) throws(E) -> Void) throws(E) {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: entry.text)
        out.append(contentsOf: entry.envelope)
        let (shape, offset, truncated) = (entry.shape, entry.offset, entry.truncated)
        try out.withUnsafeBufferPointer { (bytes) throws(E) in
            try emit(Line(bytes: bytes, offset: offset, truncated: truncated, container: shape))
        }
    }

    /// Hands out `entry` from its own storage: its envelope is appended to its text for the call only (an
    /// output that throws leaves the entry as it was, as `send` does).
    private static func sendInPlace<E: Error>(_ entry: inout Building, _ emit: (Line) throws(E) -> Void) throws(E) {
        let (textLength, shape, offset, truncated) = (entry.text.count, entry.shape, entry.offset, entry.truncated)
        entry.envelope.withUnsafeBufferPointer { entry.text.append(contentsOf: $0) }
        defer { entry.text.removeLast(entry.text.count - textLength) }
        try entry.text.withUnsafeBufferPointer { (bytes) throws(E) in
            try emit(Line(bytes: bytes, offset: offset, truncated: truncated, container: shape))
        }
    }

    /// Appends one more line of an entry, cut (on a UTF-8 boundary) at the line limit.
    private func appendLine(_ line: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], truncated: inout Bool) {
        Self.append(line, to: &text, room: maxLineBytes, truncated: &truncated)
    }

    /// Appends at most `room` bytes of `bytes`, cut on a UTF-8 boundary, `truncated` set when cut.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], room: Int, truncated: inout Bool) {
        let kept = UTF8Validation.prefixLength(bytes, within: room)
        if kept < bytes.count { truncated = true }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<kept]))
    }
}
