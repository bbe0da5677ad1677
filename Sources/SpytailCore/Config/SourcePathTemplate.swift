/// A file output's path with placeholders, one file per value: `{source}` (the source's name, `unnamed` for
/// files named on the command line that no source takes) and `{<pathFieldsKey>.<group>}`, a group of a
/// source's `pathFields` (`/srv/out/{k8s.namespace}.jsonl`; `unnamed` for a file whose path gives none).
/// Every entry of one file goes to one path, so the path is worked out once per file.
///
/// A class: it holds its own compiled regexes and the last file's path, and is used from one thread (the
/// output's writer).
public final class SourcePathTemplate {
    public static let placeholder = "{source}"
    public static let unnamed = "unnamed"

    enum Part {
        case literal(String)
        case source
        /// The group `group` of the `pathFields` of the sources using `key`.
        case pathField(key: String, group: String)
    }

    public let template: String
    let parts: [Part]
    let names: [String]
    /// Each source's `pathFields` (nil: none), compiled for this template alone (its regex keeps match state).
    private let pathFields: [PathFields?]
    private var last: (file: SourceFile, path: String)?

    /// `sources`: the config's, in order (their names and `pathFields`).
    public init(_ template: String, sources: [SpytailConfig.Source]) {
        self.template = template
        parts = Self.parse(template)
        names = sources.map(\.name)
        pathFields = sources.map { source in
            source.pathFields.flatMap { try? Regex($0) }.map { PathFields(regex: $0, key: source.pathFieldsKey) }
        }
    }

    /// Whether `path` holds any placeholder.
    public static func holdsPlaceholder(_ path: String) -> Bool { path.contains("{") }

    /// The names between braces in `path` (`source`, `k8s.namespace`), in order; nil when a brace is unpaired.
    public static func placeholders(in path: String) -> [String]? {
        pieces(of: path)?.compactMap { $0.isPlaceholder ? $0.text : nil }
    }

    /// `template` cut into its literal text and the names between its braces, in order; nil when a brace is
    /// unpaired. The one reading of the syntax, for the config's check and for the writer.
    static func pieces(of template: String) -> [(text: String, isPlaceholder: Bool)]? {
        var pieces: [(text: String, isPlaceholder: Bool)] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[rest.index(after: open)..<close]
            guard !name.contains("{") else { return nil }
            if open > rest.startIndex { pieces.append((String(rest[..<open]), false)) }
            pieces.append((String(name), true))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append((String(rest), false)) }
        return pieces
    }

    /// The path for the entries of `file`.
    public func path(for file: SourceFile) -> String {
        if let last, last.file === file { return last.path }
        var values: [String: String]?
        var path = ""
        for part in parts {
            switch part {
            case .literal(let text): path += text
            case .source: path += Self.fileName(file.source >= 0 && file.source < names.count ? names[file.source] : Self.unnamed)
            case .pathField(let key, let group):
                values = values ?? groups(of: file)
                path += Self.fileName(values?["\(key).\(group)"] ?? Self.unnamed)
            }
        }
        last = (file, path)
        return path
    }

    /// The file's `pathFields` groups, as `key.group` → value.
    private func groups(of file: SourceFile) -> [String: String] {
        guard file.source >= 0, file.source < pathFields.count, let fields = pathFields[file.source],
              let values = fields.values(in: file.path) else { return [:] }
        return Dictionary(values.map { ("\(fields.key).\($0.name)", String(decoding: $0.value, as: UTF8.self)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The folder that must exist for `path`: the one holding the part before its first placeholder (the
    /// folders below it are made as needed).
    public static func fixedFolder(of path: String) -> String {
        let fixed = path[..<(path.firstIndex(of: "{") ?? path.endIndex)]
        return fixed.lastIndex(of: "/").map { String(fixed[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    }

    /// A value as one file name: `/` and NUL become `_`, and `.` or `..` or nothing is `_`.
    static func fileName(_ value: String) -> String {
        let cleaned = String(value.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "_" : cleaned
    }

    /// The template's parts; one the config's check refused (unpaired braces, an unknown name) stays literal.
    static func parse(_ template: String) -> [Part] {
        (pieces(of: template) ?? [(template, false)]).map { piece in
            guard piece.isPlaceholder else { return .literal(piece.text) }
            if piece.text == "source" { return .source }
            guard let dot = piece.text.firstIndex(of: ".") else { return .literal("{\(piece.text)}") }
            return .pathField(key: String(piece.text[..<dot]), group: String(piece.text[piece.text.index(after: dot)...]))
        }
    }

    /// Why a source's name cannot be part of a file name, if it cannot.
    public static func problem(with name: String) -> String? {
        if name.contains("/") { return "contains '/'" }
        if name == "." || name == ".." { return "is '\(name)'" }
        if name.utf8.contains(0) { return "contains a NUL" }
        return nil
    }
}
