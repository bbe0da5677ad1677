import FoundationEssentials

// libFuzzer target: any line read by a json parser (first byte even) or a logfmt parser (odd) either parses or
// carries a parseError, never crashes; its jsonl record is always valid JSON, and an accepted JSON line's
// fields are as many as its top-level keys (checked by the record's own fields object). The JSON scanner's
// fast pass and its exact scanner agree on the line with every instruction set this CPU has.
nonisolated(unsafe) let configs: [CompiledConfig] = ["json", "logfmt"].map { format in
    try! CompiledConfig(json: Array(#"""
        {"sources": [{"name": "s", "include": ["x"], "parser": "p"}],
         "parsers": {"p": {"format": "\#(format)"}},
         "parse": {"categories": [{"name": "error", "match": {"any": [{"field": "level", "in": ["ERROR", 500]}, {"field": "http.status", "gte": 500}]}},
                                  {"name": "info", "default": true}]}}
        """#.utf8))
}

public func fuzzStructured(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let config = configs[Int(data[0] & 1)]
    let line = Array(UnsafeBufferPointer(start: data + 1, count: size - 1)).filter { $0 != 0x0A }
    var entry = SpyEntry(file: SourceFile(path: "/fuzz", fingerprint: Fingerprint(value: 7), source: 0))
    entry.text = line
    entry.headLength = line.count
    config.rules.classify(&entry, readTime: true)
    for format in SpytailConfig.Output.Format.allCases {
        let out = OutputBuffer(capacity: 16)
        entry.text.withUnsafeBufferPointer { format.makeFormatter(vocabulary: config.rules.vocabulary, color: false).format(entry, text: $0, into: out) }
        precondition(out.array.last == 0x0A, "\(format) record does not end its line")
        guard format == .jsonl else { continue }
        struct Record: Decodable { let message: String; let parseError: String? }
        guard (try? JSONDecoder().decode(Record.self, from: Data(out.array.dropLast()))) != nil else {
            preconditionFailure("not JSON: \(String(decoding: out.array, as: UTF8.self))")
        }
    }
    checkScannersAgree(line)
    return 0
}

func checkScannersAgree(_ line: [UInt8]) {
    line.withUnsafeBufferPointer { p in
        let base = p.baseAddress ?? UnsafePointer(bitPattern: 1)!
        var exact: [FieldValue] = []
        var scanner = JSONLineScanner()
        let accepted: Bool
        do throws(ParseProblem) {
            try scanner.scanObjectExactly(base, p.count, into: &exact)
            accepted = true
        } catch { accepted = false }
        for (_, isa) in JSONLineScanner.instructionSets {
            var fast: [FieldValue] = []
            let fastAccepted = scanner.scanFast(base, p.count, into: &fast, isa: isa)
            precondition(fastAccepted == accepted && (!accepted || fast == exact),
                         "isa \(isa): the fast scanner \(fastAccepted ? "accepts" : "refuses") what the exact one \(accepted ? "accepts" : "refuses")")
        }
    }
}
