/// For people: `time glyph [tag glyphs] message`, then a JSON or logfmt line's fields as `key=value`
/// (nested keys joined with dots), continuation lines indented below, ANSI colour from the category's
/// `color` when asked to (the CLI asks only when the output is a terminal). A regex parser's groups are not
/// repeated (they are parts of the line shown). A line that did not parse ends with `[json: … at byte N]`.
/// Control characters are shown as `^X` so a log line cannot drive the terminal.
public struct TextFormatter: EntryFormatter {
    let categoryGlyphs: [[UInt8]]
    let categoryColors: [[UInt8]?]
    let tagGlyphs: [[UInt8]]
    let color: Bool

    public init(vocabulary: Vocabulary, color: Bool) {
        categoryGlyphs = vocabulary.categories.map { Array($0.display.utf8) }
        categoryColors = vocabulary.categories.map { $0.color.flatMap(Self.ansi).map { Array($0.utf8) } }
        tagGlyphs = vocabulary.tags.map { Array($0.display.utf8) }
        self.color = color
    }

    public func format(_ entry: borrowing SpyEntry, text: UnsafeBufferPointer<UInt8>, into out: OutputBuffer) {
        let colour = color ? categoryColors[entry.category] : nil
        if let colour { out.append(colour) }
        if let timestamp = entry.timestamp {
            appendVisible(UnsafeBufferPointer(rebasing: text[timestamp]), out)
            out.append(UInt8(ascii: " "))
        }
        out.append(categoryGlyphs[entry.category])
        out.append(UInt8(ascii: " "))
        for tag in entry.tags.indices {
            out.append(tagGlyphs[tag])
            out.append(UInt8(ascii: " "))
        }
        appendVisible(UnsafeBufferPointer(rebasing: text[entry.message]), out)
        appendKeyedFields(entry, text, out)
        if let problem = entry.parseError {
            out.append(Array(" [\(problem.description)]".utf8))
        }
        if let detail = entry.detail {
            for line in text[detail].split(separator: 0x0A, omittingEmptySubsequences: false) {
                out.append(Self.detailIndent)
                appendVisible(UnsafeBufferPointer(rebasing: line), out)
            }
        }
        if entry.truncated { out.append(Self.truncatedMark) }
        if colour != nil { out.append(Self.reset) }
        out.append(0x0A)
    }

    /// ` key=value` for each field read from the line's own keys; values with spaces are quoted.
    func appendKeyedFields(_ entry: borrowing SpyEntry, _ text: UnsafeBufferPointer<UInt8>, _ out: OutputBuffer) {
        for field in entry.fields where field.name == FieldValue.keyed {
            FlatFields.forEach(field, in: text, names: []) { key, value in
                out.append(UInt8(ascii: " "))
                key.withUnsafeBufferPointer { appendVisible($0, out) }
                out.append(UInt8(ascii: "="))
                let quoted = value.isEmpty || value.contains(where: { $0 == 0x20 || $0 == UInt8(ascii: "\"") })
                guard quoted else { return appendVisible(value, out) }
                out.append(UInt8(ascii: "\""))
                var start = 0
                for (i, b) in value.enumerated() where b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                    appendVisible(UnsafeBufferPointer(rebasing: value[start..<i]), out)
                    out.append([UInt8(ascii: "\\"), b])
                    start = i + 1
                }
                appendVisible(UnsafeBufferPointer(rebasing: value[start...]), out)
                out.append(UInt8(ascii: "\""))
            }
        }
    }

    /// Copies `bytes`, showing C0 controls and DEL as `^X` and invalid UTF-8 as U+FFFD.
    func appendVisible(_ bytes: UnsafeBufferPointer<UInt8>, _ out: OutputBuffer) {
        guard let base = bytes.baseAddress else { return }
        var i = 0, runStart = 0
        while i < bytes.count {
            let b = base[i]
            if (b >= 0x20 && b < 0x7F) || b == 0x09 { i += 1; continue }
            if b >= 0x80, case let n = UTF8Validation.sequenceLength(base + i, available: bytes.count - i), n > 0 {
                i += n
                continue
            }
            out.append(UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            if b >= 0x80 { out.append(UTF8Validation.replacementCharacter) } else { out.append([UInt8(ascii: "^"), b ^ 0x40]) }
            i += 1
            runStart = i
        }
        out.append(UnsafeBufferPointer(start: base + runStart, count: bytes.count - runStart))
    }

    static func ansi(_ name: String) -> String? {
        let codes = ["red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36", "dim": "2", "bold": "1"]
        return codes[name].map { "\u{1B}[\($0)m" }
    }

    static let detailIndent = Array("\n    ".utf8)
    static let truncatedMark = Array(" [truncated]".utf8)
    static let reset = Array("\u{1B}[0m".utf8)
}
