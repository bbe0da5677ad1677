import Testing
@testable import SpytailCore

/// Cross-field checks and compilation: regexes, references, defaults, uniqueness.
struct CompiledConfigTests {
    static let pattern = #""pattern": "^(?<timestamp>\\S+) (?<level>[A-Z]+) (?<message>.*)$""#
    static let categories = #""categories": [{"name": "error", "match": {"field": "level", "prefix": "ERROR"}}, {"name": "info", "default": true}]"#

    static let cases: [(String, String)] = [
        (#"{"parse": {"tags": [{"name": "a", "match": {"contains": "x"}}, {"name": "b", "match": {"contains": "y"}}, {"name": "c", "match": {"regex": "(unclosed"}}]}}"#,
         "parse.tags[2].match.regex: invalid regex: missing closing parenthesis at offset 9"),
        (#"{"parse": {"pattern": "(?<timestamp"}}"#, "parse.pattern: invalid regex:"),
        (#"{"parse": {"multiline": {"continuation": "["}}}"#, "parse.multiline.continuation: invalid regex:"),
        (#"{"parse": {"categories": [{"name": "a", "match": {"contains": "x"}}]}}"#,
         #"parse.categories: exactly one category must have "default": true; none has"#),
        (#"{"parse": {"categories": [{"name": "a", "default": true}, {"name": "b", "default": true}]}}"#,
         #"parse.categories[1].default: exactly one category must have "default": true; parse.categories[0] has it already"#),
        (#"{"parse": {"categories": [{"name": "a", "default": true}, {"name": "a", "match": {"contains": "x"}}]}}"#,
         "parse.categories[1].name: duplicate name 'a' (first used at parse.categories[0].name)"),
        (#"{"parse": {\#(pattern), "tags": [{"name": "t", "match": {"field": "lvl", "contains": "x"}}]}}"#,
         "parse.tags[0].match.field: unknown field 'lvl'; the pattern's named groups are: level"),
        (#"{"parse": {"tags": [{"name": "t", "match": {"field": "level", "contains": "x"}}]}}"#,
         "parse.tags[0].match.field: unknown field 'level': there is no parse.pattern to capture it"),
        (#"{"parse": {\#(categories)}, "filters": [{"exclude": {"category": "debug"}}]}"#,
         "filters[0].exclude.category: unknown category 'debug'; known: error, info"),
        (#"{"filters": [{"exclude": {"tag": "tca"}}]}"#, "filters[0].exclude.tag: unknown tag 'tca'; none is defined"),
        (#"{"filters": [{"exclude": {"integration": "tca"}}]}"#, "filters[0].exclude.integration: unknown integration 'tca'; none is defined"),
        (#"{"outputs": [{"type": "stdout", "where": {"category": "nope"}}]}"#, "outputs[0].where.category: unknown category 'nope'; known: info"),
        (#"{"outputs": [{"type": "stdout"}, {"type": "stdout"}]}"#, "outputs[1].type: only one output may write to stdout"),
        (#"{"outputs": [{"type": "file", "path": "a"}, {"type": "file", "path": "a"}]}"#, "outputs[1].path: 'a' is written by outputs[0] already"),
        (#"{"sources": [{"name": "s", "include": ["a"]}, {"name": "s", "include": ["b"]}]}"#, "sources[1].name: duplicate name 's'"),
    ]

    @Test(arguments: cases)
    func rejects(_ json: String, _ expected: String) {
        do {
            _ = try CompiledConfig(json: Array(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.errors.contains { $0.description.hasPrefix(expected) }, "got: \(error)")
        }
    }

    @Test func tooManyTags() {
        let tags = (0...64).map { #"{"name": "t\#($0)", "match": {"contains": "x"}}"# }.joined(separator: ",")
        #expect(throws: ConfigErrors.self) { try CompiledConfig(json: Array(#"{"parse": {"tags": [\#(tags)]}}"#.utf8)) }
    }

    @Test func defaultsAreUsable() throws {
        let compiled = try CompiledConfig(json: Array("{}".utf8))
        #expect(compiled.config.outputs == [SpytailConfig.Output(destination: .stdout, format: .text)])
        #expect(compiled.rules.vocabulary.categories.map(\.name) == ["info", "gap"])  // gap is built in
    }
}
