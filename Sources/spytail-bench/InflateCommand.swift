import ArgumentParser
import CZlib
import Glibc
import SpytailIO

/// `spytail-bench inflate`: reads files to their end and throws the bytes away, through zlib (`gzread`) or
/// through the reader spytail uses (ISA-L's igzip inflate), so the two inflaters are compared on the same
/// chain in the same run. Plain files are read as they are by both.
struct InflateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inflate",
        abstract: "Decompress files and discard the bytes, with zlib or with spytail's reader (ISA-L).",
        shouldDisplay: false)

    enum Library: String, ExpressibleByArgument, CaseIterable { case zlib, isal }

    @Option(help: "zlib or isal.") var library: Library
    @Argument(help: "Files, gzip or plain.") var files: [String]

    func run() throws {
        var total = 0
        for file in files { total += library == .zlib ? try Self.zlib(file) : try Self.isal(file) }
        print("\(total) bytes")
    }

    static func zlib(_ path: String) throws -> Int {
        guard let file = gzopen(path, "rb") else { throw ValidationError("cannot open \(path)") }
        defer { gzclose(file) }
        gzbuffer(file, 128 * 1024)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            guard n >= 0 else { throw ValidationError("\(path): zlib error") }
            if n == 0 { return total }
            total += Int(n)
        }
    }

    static func isal(_ path: String) throws -> Int {
        let source = try FileOpener.open(path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 64)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return total }
            total += n
        }
    }
}
