/// The console states of SpyDashboard, applied to a pipeline.
public enum SpyState: String, Sendable, CaseIterable {
    /// Read, parse, filter and export.
    case recording
    /// Watch and keep positions current; export nothing.
    case idle
    /// No watches, negligible cost.
    case disabled
}
