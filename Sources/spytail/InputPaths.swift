import ArgumentParser
import Glibc
import SpytailCore
import SpytailIO

/// The files `scan` and `explore` read: the PATHs given (a rotated chain's members oldest first), or the
/// configured sources' files; each with the index of the source whose parser reads it.
enum InputPaths {
    /// The explicit paths in reading order, or the configured sources' files, each with its source's index.
    static func resolve(_ file: ConfigFile, paths: [String], source: String?, command: String) throws -> [(path: String, source: Int)] {
        let sources = file.config.sources
        let discovery = PathDiscovery(baseDirectory: file.baseDirectory, sources: sources)
        if !paths.isEmpty {
            var named: Int?
            if let source {
                guard let index = sources.firstIndex(where: { $0.name == source }) else {
                    FileHandleStderr.write("spytail: error: --source \(source): \(file.path) has no such source (it has: \(sources.map(\.name).joined(separator: ", ")))\n")
                    throw ExitCode(2)
                }
                named = index
            }
            let cwd = currentDirectory()
            return PathDiscovery.orderExplicit(paths).map { path in
                let absolute = path.hasPrefix("/") || path == "-" ? path : cwd + "/" + path
                return (path, named ?? discovery.sourceIndex(of: absolute, among: sources) ?? SourceFile.unnamed)
            }
        }
        let found = PathDiscovery.onePathPerFile(sources.enumerated().flatMap { index, source in
            discovery.files(for: source) { path, target in
                FileHandleStderr.write("spytail: warning: \(path): a symlink to \(target), outside the source's folder; not read (set \"followSymlinks\": true to allow)\n")
            }.map { (path: $0, source: index) }
        }, path: \.path)
        if found.isEmpty {
            let patterns = file.config.sources.flatMap(\.include).joined(separator: ", ")
            FileHandleStderr.write(file.config.sources.isEmpty
                ? "spytail: error: \(file.path) has no sources; name files to read: spytail \(command) -c \(file.path) PATH...\n"
                : "spytail: error: no file matches the sources' include patterns (\(patterns)), relative to \(file.baseDirectory)\n")
            throw ExitCode(1)
        }
        return found
    }

    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// The live files among `inputs` (what `explore --follow` reads on): a configured source's live files, or,
    /// for explicit paths, each path that is not a rotated copy of another path given (`app.log` among
    /// `app.log.2.gz app.log.1 app.log`).
    static func liveFiles(_ file: ConfigFile, inputs: [(path: String, source: Int)], explicit: Bool) -> Set<String> {
        let sources = file.config.sources
        guard explicit else {
            let discovery = PathDiscovery(baseDirectory: file.baseDirectory, sources: sources)
            return Set(inputs.filter { $0.source >= 0 && discovery.isLiveFile($0.path, of: sources[$0.source]) }.map(\.path))
        }
        func split(_ path: String) -> (folder: Substring, name: Substring) {
            guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
            return (path[..<slash], path[path.index(after: slash)...])
        }
        let named = inputs.map { split($0.path) }
        return Set(inputs.indices.filter { k in
            !named.indices.contains { other in
                other != k && named[other].folder == named[k].folder
                    && RotationName.parse(live: String(named[other].name), candidate: String(named[k].name)) != nil
            }
        }.map { inputs[$0].path })
    }
}
