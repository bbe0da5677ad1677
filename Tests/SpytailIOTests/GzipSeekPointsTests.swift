import Glibc
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

/// Seek points (zran-style access into gzip): a reader restored at any point recorded while reading a real
/// multi-member file goes on byte for byte as the first pass did, through stored, fixed and dynamic blocks,
/// member boundaries and the CRC check at each member's end.
struct GzipSeekPointsTests {
    /// Log-like text that compresses into many dynamic blocks with back-references across block boundaries.
    static func text(lines: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var out: [UInt8] = []
        let words = ["GET", "POST", "/api/orders", "/healthz", "status=200", "status=503", "user=alice", "user=bob", "took=12ms"]
        for n in 0..<lines {
            out += Array("2026-11-27T11:\(n / 60 % 60):\(n % 60)Z INFO req=\(next() % 100_000)".utf8)
            for _ in 0..<(next() % 6) { out += Array(" \(words[Int(next() % UInt64(words.count))])".utf8) }
            out.append(0x0A)
        }
        return out
    }

    /// Three members: level 6 text, stored (level 0) text, level 9 text.
    func members() -> (file: [UInt8], text: [UInt8]) {
        let parts = [Self.text(lines: 6000, seed: 1), Self.text(lines: 1500, seed: 2), Self.text(lines: 6000, seed: 3)]
        let file = Gzip.member(parts[0], level: 6) + Gzip.member(parts[1], level: 0) + Gzip.member(parts[2], level: 9)
        return (file, parts.flatMap { $0 })
    }

    @Test(arguments: [4093, 65_536])
    func everyPointResumesTheStreamByteForByte(bufferSize: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (file, text) = members()
        let path = dir.write("app.log.2.gz", file)
        let reader = try #require(try FileOpener.open(path) as? GzipReader)
        let points = GzipSeekPoints(spacing: 20_000)
        reader.seekPoints = points
        let (first, error) = drain(reader, bufferSize: bufferSize)
        // Compared as a Bool: a failure's diff of two 800 KB arrays would take minutes.
        let same = first == text
        #expect(error == nil && same)
        // A point is offered after each read: one a read at most.
        #expect(points.count >= text.count / max(20_000, bufferSize) / 2, "points were taken in every member")
        var resumed = 0
        for offset in stride(from: Int64(70_000), to: Int64(text.count), by: 50_000) {
            let point = try #require(points.point(atOrBefore: offset))
            #expect(offset - point.uncompressedOffset < 20_000 + Int64(bufferSize))
            let again = try GzipReader(fd: open(path, O_RDONLY), path: path, resumingAt: point)
            let start = Int(point.uncompressedOffset)
            let next = try read(again, upTo: 60_000)
            let equal = next == Array(text[start..<min(text.count, start + 60_000)])
            #expect(equal, "from \(start)")
            resumed += 1
        }
        // To the end, through the member boundaries and their CRC checks, from the first point.
        let point = try #require(points.point(atOrBefore: 70_000))
        let (rest, restError) = drain(try GzipReader(fd: open(path, O_RDONLY), path: path, resumingAt: point), bufferSize: 32_768)
        let restEqual = rest == Array(text[Int(point.uncompressedOffset)...])
        #expect(restError == nil && restEqual)
        #expect(resumed >= 4)
        #expect(points.point(atOrBefore: 10) == nil, "no point before the first spacing")
    }

    func read(_ reader: GzipReader, upTo count: Int) throws -> [UInt8] {
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1000)
        while out.count < count {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { break }
            out += buffer[..<n]
        }
        return Array(out.prefix(count))
    }

    @Test func damageAfterAPointIsStillReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (file, text) = members()
        let good = dir.write("good.gz", file)
        let reader = try #require(try FileOpener.open(good) as? GzipReader)
        let points = GzipSeekPoints(spacing: 20_000)
        reader.seekPoints = points
        _ = drain(reader, bufferSize: 8192)
        let point = try #require(points.point(atOrBefore: Int64(text.count) / 2))
        // The same file with a byte of its last member's trailer (the CRC) changed.
        var damaged = file
        damaged[damaged.count - 6] ^= 0xFF
        let path = dir.write("damaged.gz", damaged)
        let (rest, error) = drain(try GzipReader(fd: open(path, O_RDONLY), path: path, resumingAt: point), bufferSize: 8192)
        let equal = rest == Array(text[Int(point.uncompressedOffset)...])
        #expect(equal)
        #expect(error?.description.contains("incorrect data check") == true)
    }
}
