import Foundation
import Testing
import SpytailTestSupport

/// The real logs of six systems in Tests/Fixtures/loghub (CRLF endings, no final newline): every line
/// once, in order, at its byte offset, with categories and tags counted independently here.
@Suite(.ownThread)
struct CorporaTests {
    /// (file, a category rule's `contains`, a tag rule's `contains`)
    static let corpora: [(String, String, String)] = [
        ("Android_2k.log", " E ", "WindowManager"),
        ("Apache_2k.log", "[error]", "jk2_init"),
        ("HDFS_2k.log", " WARN ", "blk_"),
        ("Linux_2k.log", "authentication failure", "sshd"),
        ("OpenSSH_2k.log", "Failed password", "Invalid user"),
        ("Zookeeper_2k.log", " ERROR ", "QuorumCnxManager"),
    ]

    @Test(arguments: corpora)
    func everyLineOnceInOrderWithItsCategoryAndTags(_ file: String, _ errorWord: String, _ tagWord: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.write("c.json", """
            {"parse": {"categories": [{"name": "error", "match": {"contains": \(json(errorWord))}}, {"name": "info", "default": true}],
                       "tags": [{"name": "t", "match": {"contains": \(json(tagWord))}}]},
             "outputs": [{"type": "stdout", "format": "jsonl"}]}
            """)
        let path = Harness.corpora.appendingPathComponent(file).path
        let result = try Harness.spytail(["scan", "-c", config, path])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Harness.records(result)

        // The expectation, computed from the raw bytes without spytail's code.
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        var lines: [(text: String, offset: Int)] = []
        var start = 0
        for (i, byte) in raw.enumerated() where byte == 0x0A {
            lines.append((String(decoding: raw[start..<i], as: UTF8.self), start))
            start = i + 1
        }
        if start < raw.count { lines.append((String(decoding: raw[start...], as: UTF8.self), start)) }
        lines = lines.map { ($0.text.hasSuffix("\r") ? String($0.text.dropLast()) : $0.text, $0.offset) }

        #expect(lines.count == 2000)
        #expect(records.count == lines.count)
        #expect(records.map { $0["message"] as? String } == lines.map(\.text))
        #expect(records.map { ($0["source"] as? [String: Any])?["offset"] as? Int } == lines.map(\.offset))
        let errors = records.filter { $0["category"] as? String == "error" }.count
        #expect(errors == lines.filter { $0.text.contains(errorWord) }.count)
        #expect(errors > 0)
        let tagged = records.filter { ($0["tags"] as? [String]) == ["t"] }.count
        #expect(tagged == lines.filter { $0.text.contains(tagWord) }.count)
        #expect(Set(records.compactMap { $0["id"] as? String }).count == 2000)
        #expect(records.allSatisfy { $0["timestamp"] is NSNull })
    }

    func json(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }
}
