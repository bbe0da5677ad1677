import CZlib

/// Builds gzip data in memory with zlib, for tests of the gzip reader (single and multi-member files).
public enum Gzip {
    /// One gzip member holding `bytes`.
    public static func member(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: write a gzip wrapper.
        deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out -> Int in
                stream.next_in = inp.baseAddress
                stream.avail_in = UInt32(inp.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let rc = deflate(&stream, Z_FINISH)
                precondition(rc == Z_STREAM_END, "deflate failed: \(rc)")
                return out.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        return Array(output[..<written])
    }

    public static func member(_ text: String) -> [UInt8] { member(Array(text.utf8)) }
}
