import ArgumentParser
import Foundation

/// `spytail-bench foundation-json`: W3's decode, filter and encode with Foundation's `JSONSerialization`, a
/// reference row showing why the per-line path does not use Foundation's JSON.
struct FoundationJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foundation-json",
        abstract: "Do W3's decode, filter (level WARNING/ERROR or http.status >= 500) and encode with Foundation's JSONSerialization.")

    @Argument(help: "JSON lines to read.") var input: String
    @Argument(help: "Where the kept records go.") var output: String

    func run() throws {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        guard let out = FileHandle(forWritingAtPath: output) else { throw ValidationError("cannot write \(output)") }
        defer { try? out.close() }
        var pending = Data()
        try LineFile.forEachLine(input) { line in
            let data = Data(buffer: line)
            guard var record = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                pending.append(try JSONSerialization.data(withJSONObject: ["message": String(decoding: data, as: UTF8.self), "parseError": "invalid"]))
                pending.append(0x0A)
                return
            }
            let level = record["level"] as? String ?? ""
            let status = (record["http"] as? [String: Any])?["status"] as? Int ?? 0
            guard level == "WARNING" || level == "ERROR" || status >= 500 else { return }
            let timestamp = record.removeValue(forKey: "ts") ?? NSNull()
            let message = record.removeValue(forKey: "msg") ?? NSNull()
            let category = level == "ERROR" ? "error" : level == "WARNING" ? "warning" : level == "DEBUG" ? "debug" : "info"
            pending.append(try JSONSerialization.data(withJSONObject: ["timestamp": timestamp, "category": category,
                                                                        "message": message, "fields": record]))
            pending.append(0x0A)
            if pending.count > 1 << 16 {
                out.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        out.write(pending)
    }
}
