/// Collects the problems found while reading a config, so one `check` reports them all.
public final class ConfigDiagnostics {
    public private(set) var errors: [ConfigError] = []
    public init() {}
    public func report(_ path: JSONPath, _ problem: ConfigError.Problem) { errors.append(ConfigError(path, problem)) }
}
