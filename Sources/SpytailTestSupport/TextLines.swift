/// Lines of UTF-8 output cut at `\n` bytes, empty ones left out (as `String.split(separator: "\n")`): what the
/// tests read back from spytail's outputs, often tens of thousands of records. `String.split` walks grapheme
/// clusters and was a large share of the suite's CPU time; the bytes say the same for jsonl and text outputs
/// (they hold no raw `\r`, which would join a `\r\n` into one `Character`).
public enum TextLines {
    public static func of(_ bytes: some Collection<UInt8>) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The lines of a file (none when it cannot be read).
    public static func ofFile(_ path: String) -> [String] { of(FileBytes.read(path) ?? []) }
}
