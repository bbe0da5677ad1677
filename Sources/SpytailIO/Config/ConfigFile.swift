import Glibc
import SpytailCore

/// A config read from disk: compiled, with its paths resolved against the config file's folder, and
/// checked against the file system (output folders exist).
public struct ConfigFile {
    public let path: String
    public let compiled: CompiledConfig
    /// Relative paths in the config are relative to this folder.
    public let baseDirectory: String

    /// Reads, decodes, compiles and checks the config at `path`.
    public init(path: String) throws(ConfigFileError) {
        self.path = path
        let bytes = try Self.readAll(path)
        do {
            compiled = try CompiledConfig(json: bytes)
        } catch {
            throw ConfigFileError(path: path, problems: error.errors)
        }
        baseDirectory = Paths.parent(of: path)
        let problems = checkFileSystem()
        if !problems.isEmpty { throw ConfigFileError(path: path, problems: problems) }
    }

    public var config: SpytailConfig { compiled.config }

    /// `path` from the config, resolved against the config file's folder.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : Paths.join(baseDirectory, path)
    }

    /// The checkpoint file's resolved path, if the config names one.
    public var checkpointPath: String? { config.checkpoints.map(resolve) }

    /// Output files must go into folders that exist: spytail creates files, and folders only below a path's
    /// first placeholder (`/srv/out/{k8s.namespace}/app.jsonl` needs /srv/out).
    func checkFileSystem() -> [ConfigError] {
        var problems: [ConfigError] = []
        for (i, output) in config.outputs.enumerated() {
            guard case .file(let file) = output.destination else { continue }
            let folder = SourcePathTemplate.fixedFolder(of: resolve(file))
            if Syscall.stat(folder)?.isDirectory != true {
                problems.append(ConfigError(JSONPath.root.appending("outputs").appending(i).appending("path"),
                                            .invalidValue("folder '\(folder)' does not exist")))
            }
        }
        for (i, output) in config.outputs.enumerated() {
            guard case .clickhouse(let settings) = output.destination else { continue }
            for (key, file) in [("passwordFile", settings.passwordFile), ("caFile", settings.caFile)] {
                guard let file, Syscall.stat(resolve(file)) == nil else { continue }
                problems.append(ConfigError(JSONPath.root.appending("outputs").appending(i).appending(key),
                                            .invalidValue("file '\(resolve(file))' does not exist")))
            }
        }
        if let token = config.http?.tokenFile, Syscall.stat(resolve(token)) == nil {
            problems.append(ConfigError(JSONPath.root.appending("http").appending("tokenFile"),
                                        .invalidValue("file '\(resolve(token))' does not exist")))
        }
        if let checkpoints = checkpointPath, Syscall.stat(Paths.parent(of: checkpoints))?.isDirectory != true {
            problems.append(ConfigError(JSONPath.root.appending("checkpoints"),
                                        .invalidValue("folder '\(Paths.parent(of: checkpoints))' does not exist")))
        }
        return problems
    }

    public static func readAll(_ path: String) throws(ConfigFileError) -> [UInt8] {
        let source: any ByteSource
        do {
            source = try FileOpener.open(path)
        } catch {
            throw ConfigFileError(path: path, unreadable: error.description)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { raw in try source.read(into: raw) }
            } catch {
                throw ConfigFileError(path: path, unreadable: "\(error)")
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > 16 << 20 { throw ConfigFileError(path: path, unreadable: "\(path): larger than 16 MiB") }
        }
    }
}

/// A config file that could not be used: unreadable, or with problems at JSON paths.
public struct ConfigFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problems: [ConfigError]
    public let unreadable: String?

    init(path: String, problems: [ConfigError]) {
        self.path = path
        self.problems = problems
        unreadable = nil
    }

    init(path: String, unreadable: String) {
        self.path = path
        problems = []
        self.unreadable = unreadable
    }

    /// One line per problem: `config.json: parse.tags[2].match.regex: invalid regex: …`.
    public var description: String {
        unreadable ?? problems.map { "\(path): \($0)" }.joined(separator: "\n")
    }
}
