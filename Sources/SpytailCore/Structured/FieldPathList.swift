/// Field paths tried in order (a parser's message or timestamp keys), their components held flat in one
/// byte array: finding the first one an entry has reads them in place. (Reading a `FieldPath` out of an
/// array copied it: a retain and a release of its two arrays and its text per path and line, a tenth of
/// W3's CPU.)
struct FieldPathList: Sendable {
    /// Every path's component bytes, one path after the other.
    private let bytes: [UInt8]
    /// Component ends, each relative to its path's first byte.
    private let ends: [Int]
    /// Each path's bytes and component ends in the arrays above.
    private let spans: [Span]

    struct Span: Sendable {
        let bytes: Range<Int>
        let ends: Range<Int>
    }

    init(_ paths: [FieldPath]) {
        var bytes: [UInt8] = [], ends: [Int] = [], spans: [Span] = []
        for path in paths {
            let (byteStart, endStart) = (bytes.count, ends.count)
            bytes += path.storage
            ends += path.ends
            spans.append(Span(bytes: byteStart..<bytes.count, ends: endStart..<ends.count))
        }
        (self.bytes, self.ends, self.spans) = (bytes, ends, spans)
    }

    var isEmpty: Bool { spans.isEmpty }

    /// Where the first path that `fields` have leads: the index of a top-level field (a one-component path),
    /// or the value inside one (a nested path); nil when none of them is there.
    func first(in fields: UnsafeBufferPointer<FieldValue>, text: UnsafeBufferPointer<UInt8>) -> (index: Int?, value: FieldValue?)? {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                spans.withUnsafeBufferPointer { spans in
                    for span in spans {
                        let pathBytes = UnsafeBufferPointer(rebasing: bytes[span.bytes])
                        let pathEnds = UnsafeBufferPointer(rebasing: ends[span.ends])
                        if pathEnds.count == 1 {
                            if let index = FieldPath.topIndex(fields, text, pathBytes, nil) { return (index, nil) }
                        } else if let value = FieldPath.value(pathBytes, pathEnds, fields: fields, text: text, named: nil) {
                            return (nil, value)
                        }
                    }
                    return nil
                }
            }
        }
    }
}
